package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.jenkins_lookup3} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class JenkinsLookup3CodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public JenkinsLookup3CodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.jenkins_lookup3";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{}", "{\"initval\": 1230}", "{\"initval\": 7, \"prefix\": [70, 65, 68, 66]}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("initval", "prefix");
        long initval = config.has("initval") ? config.longField("initval", 0, 0xFFFFFFFFL) : 0;
        byte[] prefix = null;
        if (config.has("prefix")) {
            long[] p = config.longArrayField("prefix", 0, 255);
            prefix = new byte[p.length];
            for (int i = 0; i < p.length; i++) {
                prefix[i] = (byte) p[i];
            }
        }
        return new JenkinsLookup3Codec(initval, prefix);
    }
}
