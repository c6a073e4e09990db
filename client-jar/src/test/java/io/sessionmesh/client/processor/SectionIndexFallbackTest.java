package io.sessionmesh.client.processor;

import io.sessionmesh.client.annotation.SessionSections;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A build without the processor (these test classes are compiled with only Spring Boot's configuration processor on
 * the processor path, so no index is written): the index has no entry, so
 * {@link SectionIndex#forMethod} reads the annotations, class sections first, checks them as the processor would,
 * and counts the fallbacks; an index entry, when there is one, wins.
 */
class SectionIndexFallbackTest {
    @TempDir
    Path dir;

    static class Plain {
        public void none() {
        }
    }

    @SessionSections({"clientInfo", "deposits"})
    static class Annotated {
        @SessionSections({"deposits", "interestRates"})
        public void both() {
        }

        public void classOnly() {
        }
    }

    static class Bad {
        @SessionSections({"cards,deposits"})
        public void comma() {
        }

        @SessionSections({"cards", "cards"})
        public void twice() {
        }

        @SessionSections({})
        public void empty() {
        }
    }

    static SectionIndex emptyIndex() {
        return SectionIndex.load(new URLClassLoader(new URL[0], null));
    }

    @Test
    void withoutAnIndex_theAnnotationsAreRead_classSectionsFirst_andCounted() throws Exception {
        SectionIndex index = emptyIndex();
        assertTrue(index.entries().isEmpty());
        assertNull(index.forMethod(Plain.class.getMethod("none")), "no annotation: not session-bearing");
        assertEquals(0, index.reflectionFallbacks());

        SectionIndex.Entry both = index.forMethod(Annotated.class.getMethod("both"));
        assertEquals(List.of("clientInfo", "deposits", "interestRates"), both.sections());
        assertEquals(SectionIndex.key(Annotated.class.getMethod("both")), both.handler());
        SectionIndex.Entry classOnly = index.forMethod(Annotated.class.getMethod("classOnly"));
        assertEquals(List.of("clientInfo", "deposits"), classOnly.sections());
        assertEquals(2, index.reflectionFallbacks());
        assertEquals(both, index.forMethod(Annotated.class.getMethod("both")));
        assertEquals(2, index.reflectionFallbacks(), "a method is read once");
    }

    @Test
    void anAnnotationTheProcessorWouldRefuse_failsNamingTheMethodAndTheName() throws Exception {
        SectionIndex index = emptyIndex();
        IllegalStateException comma = assertThrows(IllegalStateException.class, () -> index.forMethod(Bad.class.getMethod("comma")));
        assertEquals("@SessionSections on " + SectionIndex.key(Bad.class.getMethod("comma")) + ": \"cards,deposits\" has a "
                + "comma, which the REST API uses to list section names", comma.getMessage());
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> index.forMethod(Bad.class.getMethod("twice")));
        assertTrue(twice.getMessage().endsWith(": section \"cards\" is listed twice"), twice.getMessage());
        IllegalStateException empty = assertThrows(IllegalStateException.class, () -> index.forMethod(Bad.class.getMethod("empty")));
        assertTrue(empty.getMessage().endsWith(" lists no section"), empty.getMessage());
    }

    @Test
    void anIndexEntry_winsOverTheAnnotations() throws Exception {
        String key = SectionIndex.key(Annotated.class.getMethod("both"));
        Path resource = dir.resolve(SectionIndex.RESOURCE);
        Files.createDirectories(resource.getParent());
        Files.writeString(resource, key + "\tGET\t/both\tinterestRates\n");
        SectionIndex index = SectionIndex.load(new URLClassLoader(new URL[] {dir.toUri().toURL()}, null));
        assertEquals(List.of("interestRates"), index.forMethod(Annotated.class.getMethod("both")).sections());
        assertEquals(0, index.reflectionFallbacks());
    }
}
