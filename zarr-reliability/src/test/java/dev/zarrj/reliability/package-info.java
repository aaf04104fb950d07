/**
 * Reliability tests that span modules: {@code differential} (zarrita reads what zarrj writes and
 * the reverse), {@code crash} (child JVMs killed while writing), {@code faults} (full file systems,
 * interrupts) and {@code stress} (many threads writing one array).
 */
package dev.zarrj.reliability;
