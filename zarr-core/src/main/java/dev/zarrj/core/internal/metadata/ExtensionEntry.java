package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import java.util.Iterator;
import java.util.regex.Pattern;

/**
 * One extension as written in metadata: a short-hand name or an object with {@code name},
 * optional {@code configuration} and optional {@code must_understand}.
 *
 * @param name           the extension's name
 * @param config         its configuration (empty when absent)
 * @param mustUnderstand false only when the metadata says {@code "must_understand": false}
 * @param pointer        JSON pointer of the entry
 */
public record ExtensionEntry(String name, ExtensionConfig config, boolean mustUnderstand, String pointer) {
    private static final Pattern REGISTERED = Pattern.compile("^[a-z][a-z0-9-_.]+$");
    private static final Pattern URI_NAME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:\\S+$");

    /**
     * Parses an entry.
     *
     * @param what a label for messages, for example {@code "codec"}
     * @throws InvalidMetadataException when it is neither a name nor a well-formed object
     */
    public static ExtensionEntry parse(JsonNode node, String pointer, String what) {
        if (node == null || node.isMissingNode()) {
            throw new InvalidMetadataException(pointer, "the " + what + " is missing");
        }
        if (node.isTextual()) {
            String name = checkName(node.textValue(), pointer, what);
            return new ExtensionEntry(name, ExtensionConfig.of(name, null, pointer + "/configuration"), true, pointer);
        }
        if (!node.isObject()) {
            throw new InvalidMetadataException(pointer, "a " + what + " must be a name or an object with \"name\", found " + node);
        }
        JsonNode nameNode = node.get("name");
        if (nameNode == null || !nameNode.isTextual()) {
            throw new InvalidMetadataException(pointer + "/name", "a " + what + " object needs a string \"name\", found "
                    + (nameNode == null ? "none" : nameNode.toString()));
        }
        String name = checkName(nameNode.textValue(), pointer + "/name", what);
        boolean mustUnderstand = true;
        JsonNode mu = node.get("must_understand");
        if (mu != null) {
            if (!mu.isBoolean()) {
                throw new InvalidMetadataException(pointer + "/must_understand", "must be true or false, found " + mu);
            }
            mustUnderstand = mu.booleanValue();
        }
        Iterator<String> fields = node.fieldNames();
        while (fields.hasNext()) {
            String f = fields.next();
            if (!f.equals("name") && !f.equals("configuration") && !f.equals("must_understand")) {
                throw new InvalidMetadataException(pointer + "/" + f, "unknown member '" + f + "' in the " + what
                        + " '" + name + "'; allowed: name, configuration, must_understand");
            }
        }
        ExtensionConfig config = ExtensionConfig.of(name, node.get("configuration"), pointer + "/configuration");
        return new ExtensionEntry(name, config, mustUnderstand, pointer);
    }

    private static String checkName(String name, String pointer, String what) {
        if (REGISTERED.matcher(name).matches() || URI_NAME.matcher(name).matches()) {
            return name;
        }
        throw new InvalidMetadataException(pointer, "'" + name + "' is not a valid " + what
                + " name (a registered name matches ^[a-z][a-z0-9-_.]+$, or a URI)");
    }
}
