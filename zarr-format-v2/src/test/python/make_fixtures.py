"""Writes the zarr-python 2 fixtures of zarr-format-v2's tests (src/test/resources/zarr-python-2).

Run with zarr-python 2.13 and numcodecs 0.11 from the module folder:
    python3 src/test/python/make_fixtures.py
Each array's values go to expected.json: fixed-size types as base64 of their little-endian,
C-order bytes (what zarrj's NdArray holds on a little-endian machine), object arrays as lists.
"""
import base64, json, os, shutil
import numpy as np
import numcodecs
import zarr

out = os.path.join('src', 'test', 'resources', 'zarr-python-2')
shutil.rmtree(out, ignore_errors=True)
g = zarr.open_group(out, mode='w')
g.attrs['title'] = 'fixtures'
expected = {}

def add(name, data, **kw):
    kw.setdefault('dtype', data.dtype)
    a = g.create_dataset(name, shape=data.shape, **kw)
    a[...] = data
    data = a[...]    # what zarr-python reads back (quantize, astype and bitround are lossy)
    if data.dtype.kind == 'O':
        vals = [v if isinstance(v, str) else base64.b64encode(v).decode() for v in data.ravel()]
        expected[name] = {'values': vals}
    else:
        le = data.astype(data.dtype.newbyteorder('<')) if data.dtype.byteorder == '>' else data
        expected[name] = {'bytes': base64.b64encode(np.ascontiguousarray(le).tobytes()).decode()}

add('i4', np.arange(24, dtype='<i4').reshape(4, 6), chunks=(3, 4))
add('f8_big_F_zstd', np.linspace(-1, 1, 12).astype('>f8').reshape(3, 4), chunks=(2, 3), order='F',
    compressor=numcodecs.Zstd(3), fill_value=None)
add('str', np.array(['', 'a', 'héllo', '世界🎉', 'x' * 40], dtype=object), chunks=(2,), dtype=str,
    object_codec=numcodecs.VLenUTF8())
add('bytes', np.array([b'', b'\x00\x01', b'abc'], dtype=object), chunks=(2,), dtype=object,
    object_codec=numcodecs.VLenBytes())
add('dt_ns', np.array(['2020-01-01T00:00:00.000000001', 'NaT', '1969-12-31'], dtype='<M8[ns]'), chunks=(2,))
add('td_10s', np.array([10, -20, 'NaT'], dtype='m8[10s]'), chunks=(2,), fill_value=np.timedelta64('NaT'))
add('S5', np.array([b'ab', b'', b'abcde'], dtype='S5'), chunks=(2,), fill_value=b'zz')
add('U4', np.array(['ab', '', 'é🎉xy'], dtype='<U4'), chunks=(2,), fill_value='n/a')
add('U3_big', np.array(['ab', '', 'é🎉x'], dtype='>U3'), chunks=(2,))
add('V3', np.array([b'\x01\x02\x03', b'\x00\x00\x00'], dtype='V3'), chunks=(2,))
add('b1', np.array([True, False, True]), chunks=(2,), fill_value=True)
add('c16', np.array([1 + 2j, complex(np.nan, np.inf)], dtype='<c16'), chunks=(1,), fill_value=1 + 2j)
add('c8_big', np.array([1 + 2j, -3j], dtype='>c8'), chunks=(1,))
add('f4_delta_astype_gzip', np.linspace(0, 10, 9, dtype='<f4').reshape(3, 3), chunks=(2, 2), fill_value=np.nan,
    filters=[numcodecs.Delta('<f4'), numcodecs.AsType('<f2', '<f4')], compressor=numcodecs.GZip(5))
add('f4_nested_nocompressor', np.arange(6, dtype='<f4').reshape(2, 3), chunks=(1, 2), fill_value=-np.inf,
    dimension_separator='/', compressor=None)
add('f8_blosc_auto', np.arange(5, dtype='<f8'), chunks=(2,), compressor=numcodecs.Blosc('zstd', 3, shuffle=-1))
add('u1_crc32_bitshuffle', np.arange(10, dtype='u1'), chunks=(4,), filters=[numcodecs.CRC32()],
    compressor=numcodecs.Blosc('lz4', 5, shuffle=2))
add('i2_zlib', np.arange(7, dtype='>i2'), chunks=(3,), compressor=numcodecs.Zlib(4))
add('u8_lz4', np.array([0, 2**64 - 1], dtype='<u8'), chunks=(1,), compressor=numcodecs.LZ4(), fill_value=2**64 - 1)
add('i8_bz2_F', np.arange(12, dtype='<i8').reshape(2, 2, 3), chunks=(2, 1, 2), order='F', compressor=numcodecs.BZ2(3))
add('f8_fso_quantize_lzma', np.linspace(0, 1, 6), chunks=(4,),
    filters=[numcodecs.Quantize(3, '<f8'), numcodecs.FixedScaleOffset(0, 1000, '<f8', '<i4')],
    compressor=numcodecs.LZMA(preset=1))
add('bool_packbits_shuffle', np.array([True, False, True, True, False]), chunks=(3,),
    filters=[numcodecs.PackBits()], compressor=numcodecs.Shuffle(1))
add('f2_bitround_adler', np.array([1.5, -2.25, 3.0], dtype='<f2'), chunks=(2,), filters=[numcodecs.BitRound(8)],
    compressor=numcodecs.Adler32())
add('i1_fill_null', np.array([1, -2, 3], dtype='i1'), chunks=(2,), fill_value=None)
add('f8_zfpy', np.linspace(0, 1, 8).reshape(2, 4), chunks=(2, 2), compressor=numcodecs.ZFPY(mode=4, tolerance=-1, rate=-1, precision=-1))
add('empty', np.zeros((0, 3), dtype='<i2'), chunks=(1, 3))
# Filters with big-endian dtypes: each views the chunk as its dtype and hands on its output dtype,
# so the bytes reaching the compressor take the byte order of the last output dtype, else the array's.
add('f8_big_quantize', np.linspace(0, 1, 7).astype('>f8'), chunks=(3,), filters=[numcodecs.Quantize(3, '>f8')],
    compressor=numcodecs.Zlib(1))
add('i4_big_delta', np.array([1, 300, -5, 70000, 2], dtype='>i4'), chunks=(3,),
    filters=[numcodecs.Delta('>i4', astype='>i4')], compressor=None)
add('i4_big_delta_to_little', np.array([1, 300, -5, 700, 2], dtype='>i4'), chunks=(3,),
    filters=[numcodecs.Delta('>i4', astype='<i2')], compressor=None)
add('i4_big_astype_little', np.array([1, -300, 5], dtype='>i4'), chunks=(2,), filters=[numcodecs.AsType('<i2', '>i4')],
    compressor=numcodecs.Zlib(1))
add('f8_big_fso', np.linspace(-1, 1, 5).astype('>f8'), chunks=(2,),
    filters=[numcodecs.FixedScaleOffset(0, 100, '>f8', '>i2')], compressor=None)
add('f8_big_fso_little_delta_big', np.linspace(-1, 1, 5).astype('>f8'), chunks=(3,),
    filters=[numcodecs.FixedScaleOffset(0, 10, '>f8', '<i4'), numcodecs.Delta('<i4', astype='>i4')], compressor=None)
add('f4_astype_big', np.array([1.5, -2.25, 3.0], dtype='<f4'), chunks=(2,), filters=[numcodecs.AsType('>f2', '<f4')],
    compressor=None)
add('i2_dimension_names', np.arange(6, dtype='<i2').reshape(2, 3), chunks=(1, 3))
g['i2_dimension_names'].attrs['_ARRAY_DIMENSIONS'] = ['y', 'x']
g['i4'].attrs['units'] = 'm'
sub = g.create_group('sub')
sub.attrs['inner'] = True
add('sub/x', np.arange(3, dtype='<u2'), chunks=(2,))
zarr.consolidate_metadata(out)
with open(os.path.join(out, 'expected.json'), 'w') as f:
    json.dump(expected, f, indent=1, sort_keys=True)
