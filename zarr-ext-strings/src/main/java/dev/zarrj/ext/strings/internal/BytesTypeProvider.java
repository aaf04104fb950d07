package dev.zarrj.ext.strings.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import java.lang.System.Logger.Level;
import java.util.Set;

/**
 * The variable-length {@code bytes} type. zarr-python 3.0 wrote it as
 * {@code variable_length_bytes}: read with a warning, written as {@code bytes}.
 */
@AutoService(DataTypeProvider.class)
public final class BytesTypeProvider implements DataTypeProvider {
    static final String LEGACY_NAME = "variable_length_bytes";
    private static final System.Logger LOG = System.getLogger(BytesTypeProvider.class.getName());

    public BytesTypeProvider() {}

    @Override
    public String name() {
        return "bytes";
    }

    @Override
    public Set<String> aliases() {
        return Set.of(LEGACY_NAME);
    }

    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields();
        if (config.name().equals(LEGACY_NAME)) {
            LOG.log(Level.WARNING, "data type '" + LEGACY_NAME + "' (as zarr-python 3.0 wrote it) read as 'bytes',"
                    + " the name zarrj writes");
        }
        return VariableLengthType.BYTES;
    }
}
