package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionProvider;
import org.apiguardian.api.API;

/**
 * Creates {@link DataType}s from the {@code data_type} member of array metadata.
 *
 * <p>A {@link java.util.ServiceLoader} service. Data types can never be skipped with
 * {@code "must_understand": false}: an unknown data type always fails the open.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface DataTypeProvider extends ExtensionProvider<DataType> {}
