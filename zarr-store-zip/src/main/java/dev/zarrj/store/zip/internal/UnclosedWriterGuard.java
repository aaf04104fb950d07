package dev.zarrj.store.zip.internal;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Watches a zip store open for writing that is never closed. A zip archive is written only by
 * {@link ZipStore#close()}, so such a store loses its changes without a sound; this makes it
 * heard:
 *
 * <ul>
 *   <li>when the store becomes unreachable, a warning through {@link System.Logger} (logger
 *       {@code dev.zarrj.store.zip}) names the archive and what was lost, and the archive, its
 *       write lock and the spill file are released, so that the next writer in this JVM is not
 *       locked out;</li>
 *   <li>when the JVM exits first with changes not written, a warning on standard error (logging
 *       frameworks shut down in their own exit hooks, so a logger may no longer print).</li>
 * </ul>
 *
 * <p>Holds what the store holds, never the store itself, so that the store can become
 * unreachable.
 */
final class UnclosedWriterGuard implements Runnable {
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "zarrj-zip-unclosed-writers");
        t.setDaemon(true);
        return t;
    });
    private static final System.Logger LOG = System.getLogger("dev.zarrj.store.zip");
    /** Guards of the stores open for writing, for the exit hook. */
    private static final Set<UnclosedWriterGuard> OPEN = ConcurrentHashMap.newKeySet();
    private static final Object HOOK_LOCK = new Object();
    private static boolean hookAdded;

    /** Where warnings about collected stores go; tests replace it. */
    static volatile Consumer<String> warnings = m -> LOG.log(System.Logger.Level.WARNING, m);

    private final String description;
    private final boolean creates;
    private final Map<String, ?> changes;
    private final ZipArchive base;
    private final ArchiveLock writeLock;
    private volatile Spill spill;
    private volatile boolean closing;
    private Cleaner.Cleanable cleanable;

    private UnclosedWriterGuard(String description, boolean creates, Map<String, ?> changes, ZipArchive base,
            ArchiveLock writeLock) {
        this.description = description;
        this.creates = creates;
        this.changes = changes;
        this.base = base;
        this.writeLock = writeLock;
    }

    /**
     * Starts watching {@code store}, which must not be reachable from the other arguments.
     *
     * @param creates whether closing writes an archive even without changes (a new archive)
     * @param changes the store's keys set or erased, read when it is found unclosed
     */
    static UnclosedWriterGuard watch(ZipStore store, String description, boolean creates, Map<String, ?> changes,
            ZipArchive base, ArchiveLock writeLock) {
        UnclosedWriterGuard g = new UnclosedWriterGuard(description, creates, changes, base, writeLock);
        addExitHook();
        OPEN.add(g);
        g.cleanable = CLEANER.register(store, g);
        return g;
    }

    private static void addExitHook() {
        synchronized (HOOK_LOCK) {
            if (hookAdded) {
                return;
            }
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(UnclosedWriterGuard::atExit, "zarrj-zip-exit"));
            } catch (IllegalStateException exiting) {
                // The JVM is already exiting: nothing to add a hook to.
            }
            hookAdded = true;
        }
    }

    /** How many stores open for writing are watched (for tests). */
    static int watched() {
        return OPEN.size();
    }

    /** The store's spill file, once created. */
    void spill(Spill spill) {
        this.spill = spill;
    }

    /** {@code close} has begun: whatever happens next, the store was closed. */
    void closing() {
        closing = true;
    }

    /** {@code close} is done: stops watching. */
    void closed() {
        closing = true;
        cleanable.clean();
    }

    /** Runs once: when {@link #closed()} is called, or when the store has become unreachable. */
    @Override
    public void run() {
        OPEN.remove(this);
        if (closing) {
            return;
        }
        Spill s = spill;
        StringBuilder m = new StringBuilder(description).append(" was opened for writing and never closed, and was ")
                .append("garbage-collected: ").append(lost()).append(" (a zip archive is written only when its store")
                .append(" is closed; close the store, or the ZarrArray or ZarrGroup that opened it, best with")
                .append(" try-with-resources). The archive's write lock is released");
        try {
            if (base != null) {
                base.close();
            }
            if (s != null) {
                s.close();
                m.append(" and the spill file ").append(s.path()).append(" deleted");
            }
        } catch (IOException | RuntimeException e) {
            m.append("; releasing the store failed: ").append(e);
        } finally {
            writeLock.close();
        }
        warnings.accept(m.toString());
    }

    /** What closing would have written, or that nothing changed. */
    private String lost() {
        int n = changes.size();
        if (n == 0) {
            return creates ? "the new archive was not created" : "nothing was changed";
        }
        return (n == 1 ? "the change to 1 key was" : "the changes to " + n + " keys were") + " not written, and the"
                + " archive is " + (creates ? "not created" : "unchanged");
    }

    private boolean unsaved() {
        return creates || !changes.isEmpty();
    }

    /** Run at exit: says which stores open for writing lose their changes. */
    private static void atExit() {
        for (UnclosedWriterGuard g : OPEN) {
            if (!g.closing && g.unsaved()) {
                Spill s = g.spill;
                System.err.println("zarrj: " + g.description + " was opened for writing and not closed before the"
                        + " JVM exit: " + g.lost() + " (a zip archive is written only when its store is closed;"
                        + " close the store, or the ZarrArray or ZarrGroup that opened it, best with"
                        + " try-with-resources)" + (s == null ? "" : "; its spill file " + s.path()
                        + " is left beside it, and 'zarr verify --clean' removes it"));
            }
        }
    }
}
