package io.sessionmesh.benchmarks.driver.stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemSpecTest {
    private static final Path HERE = Path.of("/project");

    @Test
    void parse_aSystemAlone_isNamedAfterItselfFromTheRunsJars() {
        SystemSpec s = SystemSpec.parse(List.of("sessionmesh"), HERE).get(0);
        assertEquals(new SystemSpec("sessionmesh", "sessionmesh", HERE, List.of(), List.of()), s);
    }

    @Test
    void parse_aNamedStack_withATreeAndFlagsOfItsOwn(@TempDir Path old) throws Exception {
        Files.createDirectories(old.resolve("master-store"));
        List<SystemSpec> specs = SystemSpec.parse(List.of("before=sessionmesh@" + old,
                "two-loops=sessionmesh+sidecar:--io-threads=2+master:--io-threads=1", "spring-session"), HERE);
        assertEquals(new SystemSpec("before", "sessionmesh", old.toAbsolutePath().normalize(), List.of(), List.of()), specs.get(0));
        assertEquals(new SystemSpec("two-loops", "sessionmesh", HERE, List.of("--io-threads=1"), List.of("--io-threads=2")),
                specs.get(1));
        assertEquals("spring-session", specs.get(2).name());
    }

    @Test
    void parse_anUnnamedVariant_isNamedFromItsToken() {
        SystemSpec s = SystemSpec.parse(List.of("sessionmesh+sidecar:--io-threads=2"), HERE).get(0);
        assertEquals("sessionmesh_sidecar_--io-threads_2", s.name());
        assertEquals(List.of("--io-threads=2"), s.sidecarFlags());
    }

    @Test
    void parse_refusesWhatCannotBeAStack_namingTheToken(@TempDir Path notATree) {
        for (String bad : List.of("redis", "a b=sessionmesh", "sessionmesh+app:--x=1", "sessionmesh+sidecar:-x=1",
                "sessionmesh+sidecar:--x", "sessionmesh@" + notATree)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SystemSpec.parse(List.of(bad), HERE), bad);
            assertTrue(e.getMessage().startsWith("--systems: "), e.getMessage());
        }
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> SystemSpec.parse(List.of("sessionmesh", "sessionmesh"), HERE));
        assertTrue(twice.getMessage().contains("named twice"), twice.getMessage());
    }
}
