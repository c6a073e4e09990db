package io.sessionmesh.client.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the sections of the shared session that handling a request will read, so that the first
 * {@code getSession} of the request reads them all in one call. On a controller method, or on a controller class
 * (then for every request-handling method of it, together with the method's own).
 *
 * <pre>{@code
 * @GetMapping("/deposits/offer")
 * @SessionSections({"clientInfo", "defaultCurrency", "interestRates"})
 * public Offer offer() { ... }
 * }</pre>
 *
 * The annotation processor ({@code sessionmesh-section-processor}, its own artifact) checks the names at compile time
 * (not empty, no blank or duplicate name, each a valid section name) and writes an index of handler to HTTP methods,
 * URL patterns and sections ({@code META-INF/sessionmesh/sections.index}); at run time the Spring integration reads the
 * index. A handler compiled without the processor is read from this annotation instead (hence RUNTIME retention), with
 * one warning that says how to put the processor back. Every indexed endpoint carries a session.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface SessionSections {
    /** The section names, in the order they are read. */
    String[] value();
}
