package dev.zarrj.core.internal.datatype;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;

/**
 * The providers of the core data types, one per identifier in data-types.rst, registered like any
 * plugin's. None takes configuration; each returns its shared {@link CoreDataType} constant,
 * except {@link Raw}, which serves every {@code r<bits>} name.
 */
public final class CoreDataTypeProviders {
    private CoreDataTypeProviders() {}

    /** Rejects any configuration: core types have none. */
    private static CoreDataType plain(ExtensionConfig config, CoreDataType type) {
        config.rejectUnknownFields();
        return type;
    }

    /** {@code bool}. */
    @AutoService(DataTypeProvider.class)
    public static final class Bool implements DataTypeProvider {
        public Bool() {}

        @Override public String name() { return "bool"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.BOOL);
        }
    }

    /** {@code int8}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int8 implements DataTypeProvider {
        public Int8() {}

        @Override public String name() { return "int8"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.INT8);
        }
    }

    /** {@code int16}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int16 implements DataTypeProvider {
        public Int16() {}

        @Override public String name() { return "int16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.INT16);
        }
    }

    /** {@code int32}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int32 implements DataTypeProvider {
        public Int32() {}

        @Override public String name() { return "int32"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.INT32);
        }
    }

    /** {@code int64}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int64 implements DataTypeProvider {
        public Int64() {}

        @Override public String name() { return "int64"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.INT64);
        }
    }

    /** {@code uint8}. */
    @AutoService(DataTypeProvider.class)
    public static final class UInt8 implements DataTypeProvider {
        public UInt8() {}

        @Override public String name() { return "uint8"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.UINT8);
        }
    }

    /** {@code uint16}. */
    @AutoService(DataTypeProvider.class)
    public static final class UInt16 implements DataTypeProvider {
        public UInt16() {}

        @Override public String name() { return "uint16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.UINT16);
        }
    }

    /** {@code uint32}. */
    @AutoService(DataTypeProvider.class)
    public static final class UInt32 implements DataTypeProvider {
        public UInt32() {}

        @Override public String name() { return "uint32"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.UINT32);
        }
    }

    /** {@code uint64}. */
    @AutoService(DataTypeProvider.class)
    public static final class UInt64 implements DataTypeProvider {
        public UInt64() {}

        @Override public String name() { return "uint64"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.UINT64);
        }
    }

    /** {@code float16}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float16 implements DataTypeProvider {
        public Float16() {}

        @Override public String name() { return "float16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.FLOAT16);
        }
    }

    /** {@code float32}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float32 implements DataTypeProvider {
        public Float32() {}

        @Override public String name() { return "float32"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.FLOAT32);
        }
    }

    /** {@code float64}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float64 implements DataTypeProvider {
        public Float64() {}

        @Override public String name() { return "float64"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.FLOAT64);
        }
    }

    /** {@code complex64}. */
    @AutoService(DataTypeProvider.class)
    public static final class Complex64 implements DataTypeProvider {
        public Complex64() {}

        @Override public String name() { return "complex64"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.COMPLEX64);
        }
    }

    /** {@code complex128}. */
    @AutoService(DataTypeProvider.class)
    public static final class Complex128 implements DataTypeProvider {
        public Complex128() {}

        @Override public String name() { return "complex128"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, CoreDataType.COMPLEX128);
        }
    }

    /**
     * {@code r*}: the raw types {@code r8}, {@code r16}, {@code r24}, …, registered under the name
     * {@code "r*"}. The registry hands it every name of the form {@code r<digits>}; {@link #create}
     * reads the width from {@link ExtensionConfig#name()}.
     */
    @AutoService(DataTypeProvider.class)
    public static final class Raw implements DataTypeProvider {
        public Raw() {}

        @Override public String name() { return "r*"; }

        /**
         * @throws InvalidMetadataException unless the name is {@code r} followed by a positive
         *     multiple of 8 without leading zeros, or when a configuration field is present
         */
        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            long bits = CoreDataType.rawBits(config.name());
            if (bits <= 0 || bits % 8 != 0 || bits > CoreDataType.MAX_RAW_BITS) {
                throw new InvalidMetadataException(namePointer(config), "data type '" + config.name()
                        + "' is not a raw type: allowed are 'r' followed by a multiple of 8 from 8 to "
                        + CoreDataType.MAX_RAW_BITS + ", without leading zeros (r8, r16, r24, ...)");
            }
            config.rejectUnknownFields();
            return CoreDataType.raw((int) bits);
        }

        /** The name sits beside the configuration, or is the data_type member itself. */
        private static String namePointer(ExtensionConfig config) {
            String p = config.pointer();
            return p.endsWith("/configuration") ? p.substring(0, p.length() - "/configuration".length()) : p;
        }
    }
}
