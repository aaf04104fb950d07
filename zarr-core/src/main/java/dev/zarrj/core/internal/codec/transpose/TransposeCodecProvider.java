package dev.zarrj.core.internal.codec.transpose;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;

/** Creates {@code transpose} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class TransposeCodecProvider implements CodecProvider {
    static final String NAME = "transpose";
    private static final System.Logger LOG = System.getLogger(TransposeCodecProvider.class.getName());

    /** For {@link java.util.ServiceLoader}. */
    public TransposeCodecProvider() {}

    @Override
    public java.util.List<com.fasterxml.jackson.databind.node.ObjectNode> exampleConfigurations() {
        com.fasterxml.jackson.databind.node.JsonNodeFactory f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        java.util.List<com.fasterxml.jackson.databind.node.ObjectNode> out = new java.util.ArrayList<>();
        for (int[] order : new int[][] {{0}, {1, 0}, {2, 0, 1}, {0, 2, 1}}) {
            com.fasterxml.jackson.databind.node.ObjectNode c = f.objectNode();
            com.fasterxml.jackson.databind.node.ArrayNode o = c.putArray("order");
            for (int d : order) {
                o.add(d);
            }
            out.add(c);
        }
        return out;
    }


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields(TransposeCodec.ORDER);
        if (config.has(TransposeCodec.ORDER) && config.nodeField(TransposeCodec.ORDER).isTextual()) {
            String order = config.nodeField(TransposeCodec.ORDER).textValue();
            if (!order.equals("C") && !order.equals("F")) {
                throw config.error(TransposeCodec.ORDER, "'order' must be an array of integers (a permutation of the"
                        + " chunk's dimensions), found \"" + order + "\"");
            }
            LOG.log(System.Logger.Level.WARNING, () -> "zarrj: " + config.pointer(TransposeCodec.ORDER)
                    + ": transpose 'order' \"" + order + "\" is a legacy form older zarr-python wrote (the spec now"
                    + " requires an explicit permutation); read as " + (order.equals("C") ? "[0, 1, ..., n-1]"
                    : "[n-1, ..., 1, 0]") + ", and written back that way");
            return new LegacyTransposeCodec(order.equals("F"), config.pointer(TransposeCodec.ORDER));
        }
        int[] order = config.intArrayField(TransposeCodec.ORDER, 0, Integer.MAX_VALUE);
        String pointer = config.pointer(TransposeCodec.ORDER);
        TransposeCodec.checkPermutation(order, pointer);
        return new TransposeCodec(order, pointer);
    }
}
