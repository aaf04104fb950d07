package dev.zarrj.core.metadata;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what a {@link System.Logger} of one name logs, through the java.util.logging backend
 * that {@code System.getLogger} uses by default. Reached reflectively: zarr-core's module does not
 * read {@code java.logging} (the test platform loads it).
 */
final class LogCapture implements AutoCloseable {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Object logger;
    private final Object handler;
    private final Class<?> handlerType;

    LogCapture(String loggerName) throws ReflectiveOperationException {
        Class<?> loggerType = Class.forName("java.util.logging.Logger");
        handlerType = Class.forName("java.util.logging.Handler");
        logger = loggerType.getMethod("getLogger", String.class).invoke(null, loggerName);
        Object formatter = Class.forName("java.util.logging.SimpleFormatter").getConstructor().newInstance();
        handler = Class.forName("java.util.logging.StreamHandler")
                .getConstructor(OutputStream.class, Class.forName("java.util.logging.Formatter"))
                .newInstance(out, formatter);
        loggerType.getMethod("addHandler", handlerType).invoke(logger, handler);
    }

    /** Everything logged so far, formatted. */
    String text() throws ReflectiveOperationException {
        handlerType.getMethod("flush").invoke(handler);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws ReflectiveOperationException {
        logger.getClass().getMethod("removeHandler", handlerType).invoke(logger, handler);
    }
}
