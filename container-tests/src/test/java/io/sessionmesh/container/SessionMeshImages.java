package io.sessionmesh.container;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The project's images for the tests: built from each module's Dockerfile and jar (only those two files go to the
 * engine) on a local base image, so nothing is pulled. Where Docker or the base image is missing the tests are
 * skipped with a message saying how to get them, unless Docker is required ({@value #REQUIRED} or the environment
 * variable SESSIONMESH_DOCKER_REQUIRED=true), when they fail.
 */
final class SessionMeshImages {
    /** The system property that makes a missing engine or base image a failure. */
    static final String REQUIRED = "sessionmesh.docker.required";
    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    static final String BASE_IMAGE = System.getProperty("sessionmesh.docker.base-image", "sessionmesh/debian-jre:17");

    private SessionMeshImages() {
    }

    /** Skips (or fails, when required) unless a Docker engine answers and has the base image. */
    static void assumeDockerAndBaseImage() {
        boolean required = Boolean.parseBoolean(System.getProperty(REQUIRED))
                || Boolean.parseBoolean(System.getenv("SESSIONMESH_DOCKER_REQUIRED"));
        String missing = null;
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            missing = "no Docker engine answers (apt-get install docker.io; dockerd &)";
        } else {
            try {
                DockerClientFactory.instance().client().inspectImageCmd(BASE_IMAGE).exec();
            } catch (RuntimeException e) {
                missing = "the base image " + BASE_IMAGE + " is missing (docker/build-base-image.sh makes it)";
            }
        }
        if (missing != null && required) {
            throw new AssertionError(missing + ", and " + REQUIRED + " is set");
        }
        Assumptions.assumeTrue(missing == null, missing);
    }

    static ImageFromDockerfile master() {
        return image("master", "master-store", "sessionmesh-master.jar", "sessionmesh-master.jar");
    }

    static ImageFromDockerfile sidecar() {
        return image("sidecar", "slave-sidecar", "sessionmesh-sidecar.jar", "sessionmesh-sidecar.jar");
    }

    static ImageFromDockerfile local() {
        return image("local", "local", "sessionmesh-local.jar", "sessionmesh-local.jar");
    }

    private static ImageFromDockerfile image(String name, String module, String jar, String jarInContext) {
        Path dockerfile = ROOT.resolve(module).resolve("Dockerfile");
        Path built = ROOT.resolve(module).resolve("target").resolve(jar);
        if (!Files.isRegularFile(built)) {
            throw new IllegalStateException(built + " is missing: package the module first (mvn package)");
        }
        return new ImageFromDockerfile("sessionmesh/" + name + ":test", false)
                .withFileFromPath("Dockerfile", dockerfile)
                .withFileFromPath("target/" + jarInContext, built)
                .withBuildArg("BASE_IMAGE", BASE_IMAGE);
    }
}
