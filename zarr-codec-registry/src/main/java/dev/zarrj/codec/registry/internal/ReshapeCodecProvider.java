package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code reshape} codecs from their metadata configuration (checked against each chunk shape on use). */
@AutoService(CodecProvider.class)
public final class ReshapeCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ReshapeCodecProvider() {}

    @Override
    public String name() {
        return ReshapeCodec.NAME;
    }

    /** Flattening (every rank), a size-1 frame, and the first dimension kept (ranks of at least 1). */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Json.objects("{\"shape\": [-1]}", "{\"shape\": [1, -1, 1]}", "{\"shape\": [[0], -1]}",
                "{\"shape\": [[0, 1], [2]]}");
    }

    /** @throws InvalidMetadataException when the shape's form is invalid or a field is unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("shape");
        String at = config.pointer("shape");
        JsonNode s = config.nodeField("shape");
        if (!s.isArray()) {
            throw config.error("shape", "reshape: 'shape' must be an array, found " + s);
        }
        Object[] entries = new Object[s.size()];
        boolean inferred = false;
        long previous = -1;
        for (int i = 0; i < entries.length; i++) {
            JsonNode e = s.get(i);
            if (e.isArray()) {
                long[] dims = new long[e.size()];
                for (int k = 0; k < dims.length; k++) {
                    JsonNode d = e.get(k);
                    if (!d.isIntegralNumber() || !d.canConvertToInt() || d.intValue() < 0) {
                        throw new InvalidMetadataException(at + "/" + i + "/" + k, "reshape: an input dimension must"
                                + " be a non-negative integer, found " + d);
                    }
                    if (d.longValue() <= previous) {
                        throw new InvalidMetadataException(at + "/" + i + "/" + k, "reshape: input dimensions must be"
                                + " in strictly increasing order across 'shape', found " + d + " after " + previous);
                    }
                    previous = dims[k] = d.longValue();
                }
                entries[i] = dims;
            } else if (e.isIntegralNumber() && e.canConvertToLong() && (e.longValue() >= 1 || e.longValue() == -1)) {
                if (e.longValue() == -1) {
                    if (inferred) {
                        throw new InvalidMetadataException(at + "/" + i, "reshape: -1 may occur only once in 'shape'");
                    }
                    inferred = true;
                }
                entries[i] = e.longValue();
            } else {
                throw new InvalidMetadataException(at + "/" + i, "reshape: a 'shape' entry must be a positive size,"
                        + " a list of input dimensions or -1, found " + e);
            }
        }
        return new ReshapeCodec(entries, config.pointer());
    }
}
