package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Set;
import org.apiguardian.api.API;

/**
 * What every provider found by {@link java.util.ServiceLoader} says about itself: the name it
 * registers, any aliases, and its priority.
 *
 * <p>The registry resolves names: when two different providers claim one name, the higher
 * {@link #priority()} wins (the way a third party replaces a built-in codec with a faster one) and
 * a tie is an {@link ExtensionConflictException}. The same provider class seen twice (module path
 * and class path) counts once.
 *
 * <p>A provider's public no-argument constructor must do nothing else: no I/O, no native loading.
 * Providers are stateless and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface NamedProvider {
    /** The built-in providers' priority. */
    int BUILT_IN_PRIORITY = 0;

    /**
     * The registered name ({@code ^[a-z][a-z0-9-_.]+$}, or a legacy URI name); for a store, its
     * URI scheme. Never null.
     */
    String name();

    /** Other names this provider answers to (for example an older URI name). Empty by default. */
    default Set<String> aliases() {
        return Set.of();
    }

    /** Higher wins when two providers claim one name. Built-ins use {@value #BUILT_IN_PRIORITY}. */
    default int priority() {
        return BUILT_IN_PRIORITY;
    }
}
