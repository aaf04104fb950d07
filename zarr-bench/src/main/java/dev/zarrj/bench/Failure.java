package dev.zarrj.bench;

/** An operation that did not complete: why, and whether it ran out of memory. */
record Failure(String name, String op, String error, boolean oom) {
    @Override
    public String toString() {
        return name + " " + op + ": " + error;
    }
}
