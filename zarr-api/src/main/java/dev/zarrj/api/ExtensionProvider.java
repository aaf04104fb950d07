package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A factory for one extension: turns the JSON {@code configuration} found in metadata into an
 * immutable instance.
 *
 * <p>{@link #create} validates the configuration completely and rejects anything it does not
 * understand with an {@link InvalidMetadataException} that names the field, the value and what is
 * allowed ({@link ExtensionConfig} does this for you). A known extension with broken
 * configuration always fails, even when the metadata marks it {@code "must_understand": false}.
 *
 * @param <T> the extension point's instance type
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ExtensionProvider<T extends Extension> extends NamedProvider {
    /**
     * Configurations that {@link #create} accepts, covering the settings worth exercising: tools
     * and the conformance kit create instances from them. An empty list (the default) means the
     * empty configuration is a valid one.
     */
    default java.util.List<com.fasterxml.jackson.databind.node.ObjectNode> exampleConfigurations() {
        return java.util.List.of();
    }

    /**
     * Creates an instance from its configuration.
     *
     * @param config  the configuration (an empty object when the metadata has none), never null
     * @param context access to the registry for extensions that nest others (sharding), never null
     * @return a new or shared immutable instance, never null
     * @throws InvalidMetadataException when the configuration is invalid
     */
    T create(ExtensionConfig config, ProviderContext context);
}
