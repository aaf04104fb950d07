/**
 * The {@code numpy.datetime64} and {@code numpy.timedelta64} data types: {@link
 * dev.zarrj.ext.datetime.NumpyTimeType} and its units. Elements are {@code long} counts, read and
 * written through {@link dev.zarrj.api.NdArray#getLong(long)} and {@code long[]} copies like
 * {@code int64}; {@code NumpyTimeType} converts them to {@link java.time.Instant} and {@link
 * java.time.Duration}.
 */
package dev.zarrj.ext.datetime;
