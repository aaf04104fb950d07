package dev.zarrj.ext.strings.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;

/** The variable-length UTF-8 {@code string} type, which has no configuration. */
@AutoService(DataTypeProvider.class)
public final class StringTypeProvider implements DataTypeProvider {
    public StringTypeProvider() {}

    @Override
    public String name() {
        return "string";
    }

    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields();
        return VariableLengthType.STRING;
    }
}
