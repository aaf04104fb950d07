package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.core.Zarr;

/** Codecs of this module created from configuration JSON text, as the metadata reader would. */
final class Codecs {
    private Codecs() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    @SuppressWarnings("unchecked")
    static <C extends Codec> C create(CodecProvider provider, String configuration) {
        try {
            ObjectNode c = (ObjectNode) JSON.readTree(configuration);
            return (C) provider.create(ExtensionConfig.of(provider.name(), c, "/codecs/0"), context());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(configuration, e);
        }
    }

    /** The registry's context, which creates cast_value's data types. */
    static ProviderContext context() {
        return Zarr.defaults().providerContext();
    }
}
