package io.sessionmesh.client.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import org.junit.jupiter.api.Test;

import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The processor through the javac API: good declarations give the index, bad ones fail on the right element. */
class SessionSectionsProcessorTest {
    static Compilation compile(String name, String... lines) {
        return javac().withProcessors(new SessionSectionsProcessor())
                .compile(JavaFileObjects.forSourceLines(name, lines));
    }

    static Map<String, SectionIndex.Entry> index(Compilation c) throws IOException {
        JavaFileObject f = c.generatedFile(StandardLocation.CLASS_OUTPUT, "", SectionIndex.RESOURCE).orElseThrow();
        return f.getCharContent(true).toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> SectionIndex.parse(l, "test")).collect(Collectors.toMap(SectionIndex.Entry::handler, e -> e));
    }

    @Test
    void goodController_compiles_andYieldsTheIndex() throws IOException {
        Compilation c = compile("com.example.DepositController",
                "package com.example;",
                "import io.sessionmesh.client.annotation.SessionSections;",
                "import org.springframework.web.bind.annotation.*;",
                "@RestController",
                "@RequestMapping(\"/deposits\")",
                "@SessionSections(\"clientInfo\")",
                "public class DepositController {",
                "  @GetMapping(\"/offer\")",
                "  @SessionSections({\"defaultCurrency\", \"interestRates\", \"clientInfo\"})",
                "  public String offer(@RequestParam String currency, int[] amounts) { return \"\"; }",
                "  @PostMapping",
                "  public String open() { return \"\"; }",
                "  @RequestMapping(value = {\"/a\", \"/b\"}, method = {RequestMethod.PUT, RequestMethod.PATCH})",
                "  public void change() { }",
                "  public void notAHandler() { }",
                "  public static class Inner {",
                "    @DeleteMapping(\"/x/{id}\") @SessionSections(\"cards\") public void drop(Inner self) { }",
                "  }",
                "}");
        assertThat(c).succeededWithoutWarnings();
        Map<String, SectionIndex.Entry> index = index(c);
        assertEquals(4, index.size(), index.toString());
        SectionIndex.Entry offer = index.get("com.example.DepositController#offer(java.lang.String,int[])");
        assertEquals(List.of("GET"), offer.httpMethods());
        assertEquals(List.of("/deposits/offer"), offer.patterns());
        assertEquals(List.of("clientInfo", "defaultCurrency", "interestRates"), offer.sections());
        SectionIndex.Entry open = index.get("com.example.DepositController#open()");
        assertEquals(List.of("POST"), open.httpMethods());
        assertEquals(List.of("/deposits"), open.patterns());
        assertEquals(List.of("clientInfo"), open.sections());
        SectionIndex.Entry change = index.get("com.example.DepositController#change()");
        assertEquals(List.of("PUT", "PATCH"), change.httpMethods());
        assertEquals(List.of("/deposits/a", "/deposits/b"), change.patterns());
        SectionIndex.Entry drop = index.get("com.example.DepositController$Inner#drop(com.example.DepositController$Inner)");
        assertEquals(List.of("/x/{id}"), drop.patterns());
        assertEquals(List.of("cards"), drop.sections());
    }

    @Test
    void emptyList_isAnErrorOnTheMethod() {
        Compilation c = compile("com.example.A",
                "package com.example;",
                "import io.sessionmesh.client.annotation.SessionSections;",
                "public class A {",
                "  @SessionSections({})",
                "  public void handle() { }",
                "}");
        assertThat(c).failed();
        assertThat(c).hadErrorContaining("@SessionSections lists no section").inFile(source(c, "A"))
                .onLine(4);
    }

    @Test
    void blankDuplicateAndInvalidNames_areErrorsOnTheirValues() {
        Compilation c = compile("com.example.B",
                "package com.example;",
                "import io.sessionmesh.client.annotation.SessionSections;",
                "public class B {",
                "  @SessionSections({\"ok\",",
                "      \" \",",
                "      \"ok\",",
                "      \"a,b\",",
                "      \"tab\\there\"})",
                "  public void handle() { }",
                "}");
        assertThat(c).failed();
        assertThat(c).hadErrorContaining("\" \" is blank").inFile(source(c, "B")).onLine(5);
        assertThat(c).hadErrorContaining("section \"ok\" is listed twice").inFile(source(c, "B")).onLine(6);
        assertThat(c).hadErrorContaining("has a comma").inFile(source(c, "B")).onLine(7);
        assertThat(c).hadErrorContaining("has a control character at index 3").inFile(source(c, "B")).onLine(8);
        assertEquals(4, c.errors().size(), c.errors().toString());
    }

    @Test
    void tooLongName_isAnError() {
        String longName = "x".repeat(256);
        Compilation c = compile("com.example.C",
                "package com.example;",
                "import io.sessionmesh.client.annotation.SessionSections;",
                "@SessionSections(\"" + longName + "\")",
                "public class C { }");
        assertThat(c).failed();
        assertThat(c).hadErrorContaining("is 256 bytes of UTF-8").inFile(source(c, "C")).onLine(3);
    }

    @Test
    void methodWithoutRequestMapping_isIndexedWithAWarning() throws IOException {
        Compilation c = compile("com.example.D",
                "package com.example;",
                "import io.sessionmesh.client.annotation.SessionSections;",
                "public class D {",
                "  @SessionSections(\"s\") public void job() { }",
                "}");
        assertThat(c).succeeded();
        assertThat(c).hadWarningContaining("no Spring request mapping");
        assertTrue(index(c).get("com.example.D#job()").patterns().isEmpty());
    }

    private static JavaFileObject source(Compilation c, String simpleName) {
        return c.sourceFiles().stream().filter(f -> f.getName().endsWith(simpleName + ".java")).findFirst().orElseThrow();
    }
}
