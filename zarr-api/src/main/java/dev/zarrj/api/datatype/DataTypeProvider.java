package dev.zarrj.api.datatype;

import dev.zarrj.api.ExtensionProvider;

/**
 * Creates {@link DataType}s from the {@code data_type} member of array metadata.
 *
 * <p>A {@link java.util.ServiceLoader} service. Data types can never be skipped with
 * {@code "must_understand": false}: an unknown data type always fails the open.
 */
public interface DataTypeProvider extends ExtensionProvider<DataType> {}
