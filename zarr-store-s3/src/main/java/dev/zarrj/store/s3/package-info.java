/**
 * Opening S3 stores in code: {@link dev.zarrj.store.s3.S3Stores}.
 */
package dev.zarrj.store.s3;
