package dev.zarrj.conformance.format;

import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.conformance.MetadataFormatContract;

/** The test-only toy format passes every metadata format rule (the kit's broken fixtures derive from it). */
class ToyFormatConformanceTest extends MetadataFormatContract {
    @Override
    protected MetadataFormat format() {
        return new ToyFormat();
    }
}
