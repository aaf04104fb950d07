package dev.zarrj.core.registry;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What discovery found: every provider in use, every name conflict and how it was resolved, and
 * every provider that failed to load. {@code zarr plugins} prints it.
 *
 * @param providers    the providers in use, one per name and point
 * @param conflicts    names claimed by more than one provider
 * @param loadProblems providers that could not be loaded, with their causes
 *
 * @since 0.1
 */
@API(status = INTERNAL, since = "0.1")
public record RegistryReport(List<ProviderInfo> providers, List<Conflict> conflicts, List<LoadProblem> loadProblems) {
    public RegistryReport {
        providers = List.copyOf(providers);
        conflicts = List.copyOf(conflicts);
        loadProblems = List.copyOf(loadProblems);
    }

    /**
     * Several providers claimed one name.
     *
     * @param point     the extension point
     * @param name      the name
     * @param claimants every claimant, highest priority first
     * @param winner    the one in use, or null when the top priorities tie (using the name fails)
     */
    public record Conflict(ExtensionPoint point, String name, List<ProviderInfo> claimants, ProviderInfo winner) {
        public Conflict {
            claimants = List.copyOf(claimants);
        }

        /** Whether the top priorities tie, so that the name cannot be used. */
        public boolean unresolved() {
            return winner == null;
        }
    }

    /**
     * A provider that {@link java.util.ServiceLoader} could not instantiate.
     *
     * @param point the extension point being loaded
     * @param cause the error
     */
    public record LoadProblem(ExtensionPoint point, Throwable cause) {
        /** The error's message, with the message of its root cause. */
        public String describe() {
            Throwable root = cause;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String m = String.valueOf(cause.getMessage());
            return root == cause ? m : m + " (caused by " + root + ")";
        }
    }
}
