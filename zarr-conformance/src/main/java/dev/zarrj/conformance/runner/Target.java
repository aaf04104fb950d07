package dev.zarrj.conformance.runner;

import dev.zarrj.api.NamedProvider;

/** The provider the runner is checking now; the discovered-contract classes read it. */
final class Target {
    private static volatile NamedProvider current;
    private static volatile dev.zarrj.core.Zarr zarr;

    private Target() {}

    static void set(NamedProvider provider) {
        current = provider;
    }

    static void setZarr(dev.zarrj.core.Zarr z) {
        zarr = z;
    }

    /** The Zarr of the registry under test, whose context nested codecs are built with. */
    static dev.zarrj.core.Zarr zarr() {
        dev.zarrj.core.Zarr z = zarr;
        return z != null ? z : dev.zarrj.core.Zarr.defaults();
    }

    static <P extends NamedProvider> P get(Class<P> type) {
        NamedProvider p = current;
        if (p == null || !type.isInstance(p)) {
            throw new IllegalStateException("no " + type.getSimpleName() + " under test; run these classes through ConformanceRunner");
        }
        return type.cast(p);
    }
}
