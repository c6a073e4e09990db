package io.sessionmesh.serialization.attribute.evolution;

import io.sessionmesh.serialization.attribute.AttributeCodec;

import com.google.common.collect.ImmutableList;
import com.github.luben.zstd.Zstd;
import net.jpountz.lz4.LZ4Factory;
import one.nio.serial.Repository;
import org.objectweb.asm.ClassReader;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;

/**
 * One JVM of the evolution matrix: a class loader of its own that loads one-nio, this module and one
 * version of the application classes, so that one-nio's static repository is this "JVM"'s alone. The only
 * things shared with other simulated JVMs are the schema store (a map of uid -> bytes, which is what the
 * registry carries between real JVMs) and the value bytes.
 */
final class SimulatedJvm implements AutoCloseable {
    /** The packages of the application classes the evolution tests compile. */
    static final List<String> DEFAULT_ALLOWED_PACKAGES = List.of("evo", "old", "mid");

    private final URLClassLoader loader;
    private final Object peer;

    /**
     * @param name for messages
     * @param sources application classes of this version: class name -> Java source
     * @param store the schema store shared with the other JVMs
     * @param renamedClasses classes to register as carrying {@code @FormerNames}
     */
    SimulatedJvm(String name, Path workDir, Map<String, String> sources, ConcurrentMap<Long, byte[]> store,
                 List<String> renamedClasses) throws IOException, ReflectiveOperationException {
        this(name, workDir, sources, store, renamedClasses, DEFAULT_ALLOWED_PACKAGES);
    }

    /**
     * @param allowedPackages the packages this JVM's class filter allows (see
     *                        {@link io.sessionmesh.serialization.attribute.ClassFilter#allowingPackages})
     */
    SimulatedJvm(String name, Path workDir, Map<String, String> sources, ConcurrentMap<Long, byte[]> store,
                 List<String> renamedClasses, List<String> allowedPackages)
            throws IOException, ReflectiveOperationException {
        Path classes = Files.createDirectories(workDir.resolve(name));
        compile(classes, sources);
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        urls.addAll(moduleClassPath());
        this.loader = new URLClassLoader(name, urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        Class<?> peerClass = loader.loadClass(EvolutionPeer.class.getName());
        this.peer = peerClass.getConstructor(ConcurrentMap.class, List.class, List.class)
                .newInstance(store, renamedClasses, allowedPackages);
    }

    /** Builds an object of {@code className} with the given field values and encodes it in this JVM. */
    byte[] write(String className, Map<String, Object> fields) throws Throwable {
        return (byte[]) call("write", new Class<?>[] {String.class, Map.class}, className, fields);
    }

    /** Decodes a value in this JVM and describes it as class name + field values (see EvolutionPeer). */
    @SuppressWarnings("unchecked")
    Map<String, Object> read(byte[] value) throws Throwable {
        return (Map<String, Object>) call("read", new Class<?>[] {byte[].class}, (Object) value);
    }

    /** See {@link EvolutionPeer#writtenWithLocalSchemas}. */
    boolean writtenWithLocalSchemas(byte[] value) throws Throwable {
        return (Boolean) call("writtenWithLocalSchemas", new Class<?>[] {byte[].class}, (Object) value);
    }

    /** See {@link EvolutionPeer#writeBack}. */
    byte[] writeBack(byte[] value, String field, Object newValue) throws Throwable {
        return (byte[]) call("writeBack", new Class<?>[] {byte[].class, String.class, Object.class}, value, field, newValue);
    }

    /** Encodes a mutable list holding one object of {@code className}. */
    byte[] writeList(String className, Map<String, Object> fields) throws Throwable {
        return (byte[]) call("writeList", new Class<?>[] {String.class, Map.class}, className, fields);
    }

    /** Whether one-nio in this JVM knows this class at all. */
    boolean hasClass(String className) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private Object call(String method, Class<?>[] types, Object... args) throws Throwable {
        try {
            return peer.getClass().getMethod(method, types).invoke(peer, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }

    private static void compile(Path out, Map<String, String> sources) throws IOException {
        if (sources.isEmpty()) {
            return;
        }
        Path src = Files.createDirectories(out.resolveSibling(out.getFileName() + "-src"));
        List<String> args = new ArrayList<>(List.of("--release", "17", "-proc:none", "-d", out.toString(),
                "-classpath", location(AttributeCodec.class).getPath()));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, null, errors, args.toArray(new String[0]));
        if (status != 0) {
            throw new IllegalStateException("compiling " + sources.keySet() + " failed:\n" + errors);
        }
    }

    /** The class path of this module and its dependencies, from where their classes were loaded. */
    private static List<URL> moduleClassPath() {
        Set<URL> urls = new LinkedHashSet<>();
        for (Class<?> c : new Class<?>[] {EvolutionPeer.class, AttributeCodec.class, Repository.class, ClassReader.class,
                org.slf4j.Logger.class, ImmutableList.class, LZ4Factory.class, Zstd.class}) {
            urls.add(location(c));
        }
        addIfPresent(urls, "org.objectweb.asm.util.Printer");
        addIfPresent(urls, "org.slf4j.simple.SimpleLogger");
        addIfPresent(urls, "org.slf4j.impl.SimpleLogger");
        return new ArrayList<>(urls);
    }

    private static void addIfPresent(Set<URL> urls, String className) {
        try {
            urls.add(location(Class.forName(className)));
        } catch (ClassNotFoundException e) {
            // optional
        }
    }

    private static URL location(Class<?> c) {
        try {
            return c.getProtectionDomain().getCodeSource().getLocation().toURI().toURL();
        } catch (MalformedURLException | java.net.URISyntaxException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
