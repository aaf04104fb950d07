package dev.zarrj.core.internal.format;

import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The metadata formats an instance reads and writes: Zarr v3 (core's) and those installed. */
public final class Formats {
    private final List<MetadataFormat> installed;

    /** The formats of a registry's {@link ExtensionPoint#METADATA_FORMAT} providers, newest first. */
    public Formats(ExtensionRegistry registry) {
        List<MetadataFormat> list = new ArrayList<>();
        for (String name : registry.names(ExtensionPoint.METADATA_FORMAT)) {
            registry.find(ExtensionPoint.METADATA_FORMAT, name, MetadataFormat.class)
                    .filter(f -> f.zarrFormat() != 3 && !list.contains(f))
                    .ifPresent(list::add);
        }
        list.sort(Comparator.comparingInt(MetadataFormat::zarrFormat).reversed().thenComparing(MetadataFormat::name));
        this.installed = List.copyOf(list);
    }

    /** The installed formats other than Zarr v3, newest first: where a node without a {@code zarr.json} is looked for. */
    public List<MetadataFormat> installed() {
        return installed;
    }

    /**
     * The format of a {@code zarr_format} number.
     *
     * @throws UnsupportedFormatException when none is installed, naming what would provide it
     */
    public MetadataFormat of(int zarrFormat) {
        if (zarrFormat == 3) {
            return ZarrV3Format.INSTANCE;
        }
        for (MetadataFormat f : installed) {
            if (f.zarrFormat() == zarrFormat) {
                return f;
            }
        }
        throw new UnsupportedFormatException("", "no metadata format for zarr_format " + zarrFormat + " is installed"
                + (zarrFormat == 2 ? "; add zarr-format-v2 (module dev.zarrj.format.v2)" : "")
                + "; installed: " + numbers());
    }

    /** The installed {@code zarr_format} numbers, for messages ({@code "3, 2"}). */
    public String numbers() {
        StringBuilder b = new StringBuilder("3");
        for (MetadataFormat f : installed) {
            b.append(", ").append(f.zarrFormat());
        }
        return b.toString();
    }
}
