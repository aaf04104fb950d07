/**
 * The zarrj conformance kit: abstract JUnit 5 contracts for every extension point that a plugin's
 * own tests extend, test vectors with a verifier, and a runner for plugin jars.
 */
module dev.zarrj.conformance {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;
    requires org.junit.platform.launcher;

    exports dev.zarrj.conformance;
    exports dev.zarrj.conformance.vectors;
    exports dev.zarrj.conformance.runner;

    opens dev.zarrj.conformance to org.junit.platform.commons;
    opens dev.zarrj.conformance.runner to org.junit.platform.commons;
}
