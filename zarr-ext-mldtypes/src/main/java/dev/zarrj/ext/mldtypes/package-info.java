/**
 * The ml_dtypes family of data types: {@link dev.zarrj.ext.mldtypes.MlDataTypes}.
 */
package dev.zarrj.ext.mldtypes;
