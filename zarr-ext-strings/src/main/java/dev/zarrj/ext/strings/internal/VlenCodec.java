package dev.zarrj.ext.strings.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.datatype.ElementKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * {@code vlen-utf8} and {@code vlen-bytes} (numcodecs' VLenUTF8 and VLenBytes): a u32le element
 * count, then per element in C order a u32le byte length and the bytes (a string's UTF-8).
 */
final class VlenCodec implements ArrayToBytesCodec {
    static final VlenCodec UTF8 = new VlenCodec("vlen-utf8", ElementKind.STRING);
    static final VlenCodec BYTES = new VlenCodec("vlen-bytes", ElementKind.BYTES);

    private final String name;
    private final ElementKind kind;

    private VlenCodec(String name, ElementKind kind) {
        this.name = name;
        this.kind = kind;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public void checkSupported(ChunkSpec decoded) {
        if (decoded.dataType().kind() != kind) {
            throw new InvalidMetadataException("/codecs", name + " stores " + (kind == ElementKind.STRING
                    ? "the string data type" : "the bytes data type") + ", not '" + decoded.dataType().name() + "'");
        }
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        return EncodedSize.unbounded();
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        checkSupported(decoded);
        int n = (int) array.elementCount();
        byte[][] items;
        if (kind == ElementKind.STRING) {
            items = new byte[n][];
            String[] strings = array.toStringArray();
            CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            for (int i = 0; i < n; i++) {
                items[i] = utf8(utf8, strings[i], i);
            }
        } else {
            items = array.toBytesArray();
        }
        long total = 4;
        for (byte[] item : items) {
            total += 4 + item.length;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(name + ": a chunk of " + n + " elements encodes to " + total
                    + " bytes, more than one buffer holds (2 GiB); use smaller chunks");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(n);
        for (byte[] item : items) {
            out.putInt(item.length).put(item);
        }
        return out.flip();
    }

    private byte[] utf8(CharsetEncoder encoder, String s, int index) {
        // A string with a lone surrogate has no UTF-8 form; String.getBytes would store '?'.
        try {
            ByteBuffer b = encoder.reset().encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(name + ": element " + index + " is not valid Unicode (a lone surrogate),"
                    + " so it has no UTF-8 form", e);
        }
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        checkSupported(decoded);
        ByteBuffer in = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
        long expected = decoded.elementCount();
        if (in.remaining() < 4) {
            throw new CorruptDataException(name + ": " + in.remaining() + " bytes cannot hold the 4-byte element count");
        }
        long count = Integer.toUnsignedLong(in.getInt());
        if (count != expected) {
            throw new CorruptDataException(name + ": the chunk holds " + count + " elements, but its shape has "
                    + expected);
        }
        int n = (int) count;
        String[] strings = kind == ElementKind.STRING ? new String[n] : null;
        byte[][] bytes = kind == ElementKind.BYTES ? new byte[n][] : null;
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        for (int i = 0; i < n; i++) {
            if (in.remaining() < 4) {
                throw new CorruptDataException(name + ": the chunk ends inside the length of element " + i + " of " + n);
            }
            long length = Integer.toUnsignedLong(in.getInt());
            if (length > in.remaining()) {
                throw new CorruptDataException(name + ": element " + i + " of " + n + " says " + length
                        + " bytes, but only " + in.remaining() + " remain");
            }
            ByteBuffer item = in.slice(in.position(), (int) length);
            in.position(in.position() + (int) length);
            if (strings != null) {
                try {
                    strings[i] = utf8.reset().decode(item).toString();
                } catch (CharacterCodingException e) {
                    throw new CorruptDataException(name + ": element " + i + " of " + n + " is not valid UTF-8", e);
                }
            } else {
                bytes[i] = new byte[(int) length];
                item.get(bytes[i]);
            }
        }
        if (in.hasRemaining()) {
            throw new CorruptDataException(name + ": " + in.remaining() + " bytes follow the last of " + n + " elements");
        }
        return strings != null ? NdArray.copyOf(decoded.dataType(), strings, decoded.shape())
                : NdArray.copyOf(decoded.dataType(), bytes, decoded.shape());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VlenCodec c && c.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
