package io.sessionmesh.serialization.attribute;

import io.sessionmesh.serialization.attribute.InvalidClassFilterEntryException.Kind;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the entries of a {@link ClassFilter} mean (a package is itself and the packages under it, a class is itself and
 * its nested classes), and the entries refused when the filter is made, each with its fix.
 */
class ClassFilterEntriesTest {

    @Test
    void allowingPackages_nameWithoutADot_allowsThePackageAndThoseUnderIt() {
        ClassFilter filter = ClassFilter.allowingPackages("com.example.bank");
        assertTrue(filter.isAllowed("com.example.bank.Client"));
        assertTrue(filter.isAllowed("com.example.bank.Client$Address"));
        assertTrue(filter.isAllowed("com.example.bank.cards.Card"));
        assertTrue(filter.isAllowed("com.example.bank.cards.internal.Token"));
        assertTrue(filter.isAllowed("[Lcom.example.bank.Client;"));
        assertFalse(filter.isAllowed("com.example.Other"));
        assertEquals(List.of("com.example.bank"), filter.allowedPackages());
    }

    @Test
    void allowingPackages_nameWithATrailingDot_meansTheSame() {
        ClassFilter dotted = ClassFilter.allowingPackages("com.example.bank.");
        assertEquals(List.of("com.example.bank"), dotted.allowedPackages());
        for (String name : List.of("com.example.bank.Client", "com.example.bank.cards.Card", "com.example.banking.Loan",
                "com.example.bank", "com.example.Other")) {
            assertEquals(ClassFilter.allowingPackages("com.example.bank").isAllowed(name), dotted.isAllowed(name), name);
        }
    }

    @Test
    void allowingPackages_oneSegmentPackage_isAPackage_notAClass() {
        // the reported case: a package named as in @ComponentScan("baseline")
        ClassFilter filter = ClassFilter.allowingPackages("baseline");
        assertTrue(filter.isAllowed("baseline.Account"));
        assertTrue(filter.isAllowed("baseline.web.LoginForm"));
        assertFalse(filter.isAllowed("baselineextra.Account"));
    }

    @Test
    void allowingPackages_doesNotAllowASiblingThatSharesItsPrefix() {
        ClassFilter filter = ClassFilter.allowingPackages("com.example.bank");
        assertFalse(filter.isAllowed("com.example.banking.X"));
        assertFalse(filter.isAllowed("com.example.bankcards.X"));
        assertFalse(filter.isAllowed("com.example.bank")); // a class named bank in com.example
        assertFalse(filter.isAllowed("com.example.bank$X"));
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
                () -> filter.check("com.example.banking.X"));
        assertTrue(e.getMessage().contains("none of the allowed packages [com.example.bank]"), e.getMessage());
    }

    @Test
    void allowingPackages_spacesAroundAnEntry_areTrimmed_andRepeatsCountOnce() {
        ClassFilter filter = ClassFilter.allowingPackages(" com.example.bank ", "\tcom.example.common", "com.example.bank.");
        assertEquals(List.of("com.example.bank", "com.example.common"), filter.allowedPackages());
        assertTrue(filter.isAllowed("com.example.common.Money"));
    }

    @Test
    void allowingPackages_none_allowsTheJdkValueTypesOnly() {
        ClassFilter filter = ClassFilter.allowingPackages();
        assertTrue(filter.isAllowed("java.util.ArrayList"));
        assertFalse(filter.isAllowed("com.example.bank.Client"));
    }

    @Test
    void andClasses_allowsTheClassAndItsNestedClasses_notClassesThatShareItsPrefix() {
        ClassFilter filter = ClassFilter.allowingPackages("com.example.bank").andClasses("java.net.URL");
        assertTrue(filter.isAllowed("java.net.URL"));
        assertTrue(filter.isAllowed("java.net.URL$Parts"));
        assertTrue(filter.isAllowed("[Ljava.net.URL;"));
        assertFalse(filter.isAllowed("java.net.URLConnection"));
        assertFalse(filter.isAllowed("java.net.InetAddress"));
        assertTrue(filter.isAllowed("com.example.bank.Client"));
        assertEquals(List.of("java.net.URL"), filter.allowedClasses());
    }

    @Test
    void andClasses_nestedClassByItsBinaryName_allowsThatOneOnly() {
        ClassFilter filter = ClassFilter.allowingPackages().andClasses("com.example.Outer$Inner");
        assertTrue(filter.isAllowed("com.example.Outer$Inner"));
        assertTrue(filter.isAllowed("com.example.Outer$Inner$Deeper"));
        assertFalse(filter.isAllowed("com.example.Outer"));
        assertFalse(filter.isAllowed("com.example.Outer$Other"));
    }

    @Test
    void andClasses_makesANewFilter_leavingThisOneAsItWas() {
        ClassFilter packages = ClassFilter.allowingPackages("com.example.bank");
        ClassFilter withUrl = packages.andClasses("java.net.URL");
        ClassFilter withBoth = withUrl.andClasses("java.net.Inet4Address", "java.net.URL");
        assertFalse(packages.isAllowed("java.net.URL"));
        assertEquals(List.of(), packages.allowedClasses());
        assertEquals(List.of("java.net.URL"), withUrl.allowedClasses());
        assertEquals(List.of("java.net.URL", "java.net.Inet4Address"), withBoth.allowedClasses());
        assertEquals(List.of("com.example.bank"), withBoth.allowedPackages());
    }

    @ParameterizedTest(name = "allowingPackages(\"{0}\")")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "''                         |is blank                                  |name a package, for instance com.example.bank",
        "'   '                      |is blank                                  |or remove the empty entry",
        "com.example.*              |is a wildcard                             |write com.example: a package includes those under it",
        "com.example.**             |is a wildcard                             |write com.example: a package includes those under it",
        "' com.example.* '          |is a wildcard                             |write com.example: a package includes those under it",
        "*                          |is a wildcard                             |name each package without one",
        "com.*.bank                 |is a wildcard                             |name each package without one",
        "com..example               |has an empty part between two dots        |parts of letters, digits and _ joined by single dots",
        ".com.example               |starts with a dot                         |joined by single dots",
        "com.example..              |has an empty part between two dots        |joined by single dots",
        "com.my-company.bank        |is not a Java identifier (my-company)     |as the package declaration of its classes does",
        "com.example.2fa            |is not a Java identifier (2fa)            |as the package declaration of its classes does",
        "com.example bank           |is not a Java identifier (example bank)   |as the package declaration of its classes does",
        "com.example.new            |has a Java keyword for a part (new)       |as the package declaration of its classes does",
        "com/example/bank           |is written with slashes                   |write com.example.bank: a package name joins its parts with dots",
        "com.example.bank.Account   |names a class (its last part, Account     |put it in andClasses",
        "com.example.bank.Account.  |names a class (its last part, Account     |put com.example.bank.Account in andClasses",
        "java.net.URL               |names a class (its last part, URL         |put it in andClasses",
        "sun.misc                   |can match nothing: every class under it is always denied (\"sun.\"|remove it",
        "java.lang.reflect          |can match nothing: every class under it is always denied (\"java.lang.reflect.\"|remove it",
        "jdk.internal.misc          |(\"jdk.\" in ClassFilter.ALWAYS_DENIED)    |those classes are never decoded, whatever is allowed",
        "one.nio.serial             |(\"one.nio.\" in ClassFilter.ALWAYS_DENIED)|remove it",
    })
    void allowingPackages_entryThatIsNoPackageOrCanMatchNothing_isRefusedNamingTheFix(String entry, String problem,
                                                                                       String fix) {
        InvalidClassFilterEntryException e = assertThrows(InvalidClassFilterEntryException.class,
                () -> ClassFilter.allowingPackages("com.example.fine", entry));
        assertEquals(Kind.PACKAGE, e.kind());
        assertEquals(entry, e.entry());
        String message = e.getMessage();
        assertTrue(message.startsWith("allowingPackages: \"" + entry + "\" "), message);
        assertTrue(message.contains(problem), message);
        assertTrue(message.contains(fix), message);
    }

    @ParameterizedTest(name = "andClasses(\"{0}\")")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "''                         |is blank                                  |name a class, for instance java.net.URL",
        "java.net.*                 |is a wildcard                             |put java.net in allowingPackages: a package includes those under it",
        "com.example.bank.          |ends with a dot, as a package prefix does |put com.example.bank in allowingPackages: a package includes those under it",
        "com.example.Outer.Inner    |names a nested class with a dot (Outer    |write com.example.Outer$Inner: a nested class's binary name joins it to its outer class with $",
        "com..Account               |has an empty part between two dots        |joined by single dots",
        "com.example.My-Class       |is not a Java identifier (My-Class)       |as the package declaration of its classes does",
        "com.example.class          |has a Java keyword for a part (class)     |as the package declaration of its classes does",
        "java/net/URL               |is written with slashes                   |write java.net.URL",
        "[Ljava.net.URL;            |is an array type                          |write java.net.URL: an array is checked by its element class",
        "[I                         |is an array type                          |arrays of primitives are always allowed",
        "java.lang.Runtime          |is always denied (\"java.lang.Runtime\" in ClassFilter.ALWAYS_DENIED)|remove it: the class is never decoded",
        "java.lang.Runtime$Version  |is always denied (\"java.lang.Runtime\"   |remove it",
        "sun.misc.Unsafe            |is always denied (\"sun.\"                |remove it",
        "java.lang.reflect.Proxy    |is always denied (\"java.lang.reflect.\"  |remove it",
    })
    void andClasses_entryThatIsNoClassNameOrIsDenied_isRefusedNamingTheFix(String entry, String problem, String fix) {
        InvalidClassFilterEntryException e = assertThrows(InvalidClassFilterEntryException.class,
                () -> ClassFilter.allowingPackages("com.example").andClasses("java.net.URL", entry));
        assertEquals(Kind.CLASS, e.kind());
        assertEquals(entry, e.entry());
        String message = e.getMessage();
        assertTrue(message.startsWith("andClasses: \"" + entry + "\" "), message);
        assertTrue(message.contains(problem), message);
        assertTrue(message.contains(fix), message);
    }

    @Test
    void fix_namesTheListsAsTheCallerCallsThem() {
        InvalidClassFilterEntryException asClass = assertThrows(InvalidClassFilterEntryException.class,
                () -> ClassFilter.allowingPackages("java.net.URL"));
        assertEquals("names a class (its last part, URL, starts with an upper-case letter)", asClass.problem());
        assertEquals("put it in sessionmesh.allowed-classes",
                asClass.fix("sessionmesh.allowed-packages", "sessionmesh.allowed-classes"));
        InvalidClassFilterEntryException asPackage = assertThrows(InvalidClassFilterEntryException.class,
                () -> ClassFilter.allowingPackages().andClasses("com.example.*"));
        assertEquals("put com.example in sessionmesh.allowed-packages: a package includes those under it",
                asPackage.fix("sessionmesh.allowed-packages", "sessionmesh.allowed-classes"));
        InvalidClassFilterEntryException wildcard = assertThrows(InvalidClassFilterEntryException.class,
                () -> ClassFilter.allowingPackages("com.example.*"));
        assertEquals("write com.example: a package includes those under it",
                wildcard.fix("sessionmesh.allowed-packages", "sessionmesh.allowed-classes"));
    }

    @Test
    void refusal_isAnIllegalArgumentException_andANullEntryANullPointerException() {
        assertThrows(IllegalArgumentException.class, () -> ClassFilter.allowingPackages("com.example.*"));
        assertThrows(NullPointerException.class, () -> ClassFilter.allowingPackages((String) null));
        assertThrows(NullPointerException.class, () -> ClassFilter.allowingPackages().andClasses((String) null));
    }

    @Test
    void allowingPackages_packagesThatAreOnlyPartlyDenied_areAccepted() {
        // java.lang holds both value types (allowed) and gadgets (denied): the deny list still wins per class
        ClassFilter filter = ClassFilter.allowingPackages("java.lang", "java", "org.apache.commons", "javax");
        assertTrue(filter.isAllowed("java.lang.String"));
        assertFalse(filter.isAllowed("java.lang.Runtime"));
        assertFalse(filter.isAllowed("org.apache.commons.collections.functors.InvokerTransformer"));
    }
}
