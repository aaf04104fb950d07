/**
 * Text and byte-string data types: {@link dev.zarrj.ext.strings.StringTypes} names them and
 * converts {@code fixed_length_utf32} elements.
 */
package dev.zarrj.ext.strings;
