package io.sessionmesh.serialization.attribute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Guava is an optional dependency: the codec works in a class loader that has no Guava (as in most services). */
class WithoutGuavaTest {
    @Test
    void codec_roundTripsImmutableJdkCollections_withoutGuavaOnTheClassPath() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("guava")) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("com.google.common.collect.ImmutableList"));
            Class<?> codecClass = loader.loadClass(AttributeCodec.class.getName());
            Object builder = codecClass.getMethod("builder").invoke(null);
            Class<?> filterClass = loader.loadClass(ClassFilter.class.getName());
            Object filter = filterClass.getMethod("allowingPackages", String[].class).invoke(null, (Object) new String[0]);
            builder.getClass().getMethod("classFilter", filterClass).invoke(builder, filter);
            Object codec = builder.getClass().getMethod("build").invoke(builder);
            Method encode = codecClass.getMethod("encode", Object.class);
            Method decode = codecClass.getMethod("decode", byte[].class);
            Object value = List.of("a", "b", List.of(1, 2));
            byte[] bytes = (byte[]) encode.invoke(codec, value);
            Object back = decode.invoke(codec, (Object) bytes);
            assertEquals(value, back);
            assertEquals(value.getClass(), back.getClass());
            assertFalse(codecClass.getClassLoader() == AttributeCodec.class.getClassLoader());
        }
    }
}
