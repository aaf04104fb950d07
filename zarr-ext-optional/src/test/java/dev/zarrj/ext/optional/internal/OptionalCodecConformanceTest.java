package dev.zarrj.ext.optional.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import dev.zarrj.conformance.ConformanceKit;
import dev.zarrj.ext.optional.OptionalType;
import java.util.ArrayList;
import java.util.List;

/**
 * The optional codec against the kit's array→bytes contract, on the optional type of every core
 * type and on two nested ones. The configurations whose values go through {@code bytes} refuse the
 * nested types, the nested configuration the others ({@code InvalidMetadataException} from
 * {@code checkSupported}), so each type meets the configurations that fit it.
 *
 * <p>The codec declares {@code lossless()} false, because random sample bytes are not all
 * canonical optional elements (a present element's mask byte may be 7, a missing one's value not
 * zero); the kit then checks it on the canonical form of each sample, which it must reproduce
 * exactly.
 */
class OptionalCodecConformanceTest extends ArrayToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new OptionalCodecProvider();
    }

    @Override
    protected List<DataType> dataTypes() {
        List<DataType> out = new ArrayList<>();
        for (DataType t : ConformanceKit.coreDataTypes()) {
            out.add(OptionalType.of(t));
        }
        out.add(OptionalType.of(OptionalType.of(ConformanceKit.coreDataTypes().get(5))));
        out.add(OptionalType.of(OptionalType.LEGACY_NAME, OptionalType.of(ConformanceKit.coreDataTypes().get(11))));
        return out;
    }
}
