package io.sessionmesh.serialization.attribute;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Earlier names of a class or of a field, so that values written under any of them still decode.
 *
 * <p>On a class: fully qualified earlier class names. Register the class with
 * {@link AttributeCodec.Builder#registerClasses(Class[])} so that a reader that meets an old name knows
 * where it went. On a field: earlier simple field names; nothing needs registering, the reader finds the
 * annotation on its own class. Unlike one-nio's {@code @Renamed}, which takes one name, this takes a list,
 * so a class can be renamed more than once and still read values of every generation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD})
public @interface FormerNames {
    /** Earlier names, oldest or newest first: order does not matter. */
    String[] value();
}
