/**
 * The extension registry: which providers are installed for each extension point, how name
 * conflicts were resolved, and which providers failed to load.
 */
package dev.zarrj.core.registry;
