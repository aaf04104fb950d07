package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.zarrj.api.InvalidMetadataException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The one JSON configuration zarrj reads and writes metadata with. */
public final class Json {
    /**
     * Strict: duplicate keys and trailing tokens are errors; big integers stay exact. Decimals are
     * read as doubles, as zarr-python and JavaScript readers do: a BigDecimal would lose the sign of
     * {@code -0.0}.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.ALLOW_COMMENTS)
            // Numbers keep their written form ("1.0" stays 1.0), so documents round-trip unchanged.
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    /** Two-space indents, {@code "key": value} (no space before the colon), {@code \n} line ends. */
    private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter(
            Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));
    /** {@link #PRETTY} with every character outside ASCII escaped ({@code \u00e9}). */
    private static final ObjectWriter PRETTY_ASCII = PRETTY.with(JsonWriteFeature.ESCAPE_NON_ASCII);

    private Json() {}

    /**
     * Parses a metadata document.
     *
     * @param key the store key it came from, for the message
     * @throws InvalidMetadataException naming the key, line and column when it is not valid JSON
     */
    public static JsonNode parse(ByteBuffer bytes, String key) {
        ByteBuffer b = bytes.duplicate();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        try {
            JsonNode n = MAPPER.readTree(a);
            if (n == null || n.isMissingNode()) {
                throw new InvalidMetadataException("", "'" + key + "' is empty; expected a JSON object");
            }
            return n;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new InvalidMetadataException("", "'" + key + "' is not valid JSON" + where + ": "
                    + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new InvalidMetadataException("", "'" + key + "' could not be read: " + e.getMessage(), e);
        }
    }

    /** A document as UTF-8 JSON, indented by two spaces, ending with a newline. */
    public static ByteBuffer write(JsonNode node) {
        return write(node, PRETTY);
    }

    /**
     * A document as {@link #write} writes it, with every character outside ASCII escaped: for
     * readers that decode metadata as ASCII (zarr-python 2 does).
     */
    public static ByteBuffer writeAscii(JsonNode node) {
        return write(node, PRETTY_ASCII);
    }

    private static ByteBuffer write(JsonNode node, ObjectWriter writer) {
        try {
            String s = writer.writeValueAsString(node) + "\n";
            return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise metadata", e);
        }
    }
}
