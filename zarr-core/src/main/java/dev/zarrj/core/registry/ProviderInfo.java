package dev.zarrj.core.registry;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.zarrj.api.NamedProvider;
import java.net.URL;
import java.security.CodeSource;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One discovered provider: its point, name, priority, class, module and jar.
 *
 * @param point    the extension point
 * @param name     the registered name
 * @param priority its priority
 * @param provider the provider instance
 *
 * @since 0.1
 */
@API(status = INTERNAL, since = "0.1")
public record ProviderInfo(ExtensionPoint point, String name, int priority, NamedProvider provider) {
    /** The implementing class's name. */
    public String className() {
        return provider.getClass().getName();
    }

    /** The module's name, or {@code "unnamed (class path)"}. */
    public String moduleName() {
        Module m = provider.getClass().getModule();
        return m.isNamed() ? m.getName() : "unnamed (class path)";
    }

    /** The module's version, when its descriptor records one. */
    public Optional<String> version() {
        Module m = provider.getClass().getModule();
        if (m.isNamed() && m.getDescriptor() != null) {
            return m.getDescriptor().rawVersion();
        }
        return Optional.ofNullable(provider.getClass().getPackage().getImplementationVersion());
    }

    /** Where the class was loaded from (usually a jar), when known. */
    public String location() {
        try {
            CodeSource cs = provider.getClass().getProtectionDomain().getCodeSource();
            URL url = cs == null ? null : cs.getLocation();
            return url == null ? "unknown location" : url.toString();
        } catch (SecurityException e) {
            return "unknown location";
        }
    }

    /** A one-line description for messages: class, module and location. */
    public String describe() {
        return className() + " (module " + moduleName() + ", " + location() + ", priority " + priority + ")";
    }
}
