#!/usr/bin/env python3
"""Decodes with the reference numcodecs what zarrj encoded, for NumcodecsPythonInteropTest.

Reads a JSON list of cases from the file named by the first argument, each with "id" (numcodecs'
codec id), "configuration", "encoded" (base64) and, for array codecs, "dtype" and "astype" (the
numpy types of the encoded array); writes to stdout a JSON list of the decoded bytes (base64), or
{"error": message} where numcodecs refused.
"""
import base64
import json
import sys
import warnings

import numpy as np
import numcodecs

warnings.simplefilter("ignore")
out = []
for case in json.load(open(sys.argv[1])):
    try:
        codec = numcodecs.get_codec({"id": case["id"], **case["configuration"]})
        data = base64.b64decode(case["encoded"])
        if "encoded_dtype" in case:
            data = np.frombuffer(data, dtype=case["encoded_dtype"])
        dec = codec.decode(data)
        out.append({"decoded": base64.b64encode(np.ascontiguousarray(dec).tobytes()).decode("ascii")})
    except Exception as e:  # noqa: BLE001 - reported to the test
        out.append({"error": "%s: %s" % (type(e).__name__, e)})
json.dump(out, sys.stdout)
