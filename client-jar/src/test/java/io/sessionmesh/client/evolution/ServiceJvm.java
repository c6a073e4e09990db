package io.sessionmesh.client.evolution;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One service of the write-back matrix: a class loader of its own holding the client, its dependencies (so its own
 * one-nio repository) and one version of the application classes. Services share nothing but the real sidecar: the
 * schemas and the values cross only through it, as between real JVMs.
 */
final class ServiceJvm implements AutoCloseable {
    private final String name;
    private final URLClassLoader loader;
    private final Object peer;

    /**
     * @param sources application classes of this version: class name -> Java source
     * @param renamedClasses classes carrying {@code @FormerNames}, registered with the client
     */
    ServiceJvm(String name, Path workDir, Map<String, String> sources, String sidecar, List<String> renamedClasses)
            throws IOException, ReflectiveOperationException {
        this.name = name;
        Path classes = Files.createDirectories(workDir.resolve(name));
        compile(classes, sources);
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        this.loader = new URLClassLoader(name, urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        this.peer = loader.loadClass(ClientPeer.class.getName()).getConstructor(String.class, List.class)
                .newInstance(sidecar, renamedClasses);
    }

    String create(String attribute, String className, Map<String, Object> fields) throws Throwable {
        return (String) call("create", new Class<?>[] {String.class, String.class, Map.class}, attribute, className, fields);
    }

    String createList(String attribute, String className, Map<String, Object> fields) throws Throwable {
        return (String) call("createList", new Class<?>[] {String.class, String.class, Map.class}, attribute, className, fields);
    }

    byte[] stored(String id, String attribute) throws Throwable {
        return (byte[]) call("stored", new Class<?>[] {String.class, String.class}, id, attribute);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> read(String id, String attribute) throws Throwable {
        return (Map<String, Object>) call("read", new Class<?>[] {String.class, String.class}, id, attribute);
    }

    @SuppressWarnings("unchecked")
    List<String> readChangeSave(String id, String attribute, String change) throws Throwable {
        return (List<String>) call("readChangeSave", new Class<?>[] {String.class, String.class, String.class},
                id, attribute, change);
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
        try {
            peer.getClass().getMethod("close").invoke(peer);
        } catch (ReflectiveOperationException e) {
            throw new IOException("closing the client of " + name, e);
        } finally {
            loader.close();
        }
    }

    @Override
    public String toString() {
        return name;
    }

    private static void compile(Path out, Map<String, String> sources) throws IOException {
        Path src = Files.createDirectories(out.resolveSibling(out.getFileName() + "-src"));
        List<String> args = new ArrayList<>(List.of("--release", "17", "-proc:none", "-d", out.toString(),
                "-classpath", System.getProperty("java.class.path")));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        if (javac.run(null, null, errors, args.toArray(new String[0])) != 0) {
            throw new IllegalStateException("compiling " + sources.keySet() + " failed:\n" + errors);
        }
    }
}
