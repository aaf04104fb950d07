import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.datetime.internal.DateTime64Provider;
import dev.zarrj.ext.datetime.internal.TimeDelta64Provider;

/**
 * The {@code numpy.datetime64} and {@code numpy.timedelta64} data types (zarr-extensions): int64
 * counts of a unit times a scale factor, {@code NaT} as -2^63, the types zarr-python writes for
 * NumPy and xarray time coordinates.
 *
 * <p>Exports {@link dev.zarrj.ext.datetime.NumpyTimeType} (the data type, with conversions to and
 * from {@link java.time.Instant} and {@link java.time.Duration}) and
 * {@link dev.zarrj.ext.datetime.DateTimeUnit}.
 *
 * @provides DataTypeProvider {@code numpy.datetime64}, {@code numpy.timedelta64}
 */
module dev.zarrj.ext.datetime {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.ext.datetime;

    provides DataTypeProvider with DateTime64Provider, TimeDelta64Provider;
}
