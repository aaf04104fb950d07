package dev.zarrj.ext.datetime.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.util.List;

/** Creates {@code numpy.datetime64} types from {@code {"unit": ..., "scale_factor": ...}}. */
@AutoService(DataTypeProvider.class)
public final class DateTime64Provider implements DataTypeProvider {
    public DateTime64Provider() {}

    @Override
    public String name() {
        return "numpy.datetime64";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return NumpyTimeProviders.examples();
    }

    /**
     * @throws InvalidMetadataException when {@code unit} or {@code scale_factor} is missing or not
     *     allowed, or another field is present
     */
    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        return NumpyTimeProviders.create(NumpyTimeType.Variant.DATETIME64, config);
    }
}
