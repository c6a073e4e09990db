package io.sessionmesh.client.spring;

import com.example.bank.Account;
import com.example.banking.Loan;
import io.sessionmesh.client.ClientCodec;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.ClassNotAllowedException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code sessionmesh.*} values mean what they say: a package written as Java writes it allows its classes, and a
 * value that cannot do what its property is for stops the start, with Spring Boot's report naming the property, the
 * value and the fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class SessionMeshPropertyChecksTest {
    final ApplicationContextRunner app = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class));
    final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
            .withPropertyValues("sessionmesh.allowed-packages=com.example.bank");

    static final String ACCOUNT = Account.class.getName();

    @Test
    void allowedPackage_writtenAsJavaWritesIt_allowsItsOwnClassesAndThoseOfItsSubPackages() {
        // what the codec asks before it instantiates a class (a round trip needs a sidecar: SessionMeshHttpSessionFlowIT)
        app.withPropertyValues("sessionmesh.allowed-packages=com.example.bank").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ClassFilter filter = filter(ctx.getBean(SessionMeshClient.class));
            filter.check(ACCOUNT);
            filter.check(Account.Owner.class.getName());
            filter.check("[L" + ACCOUNT + ";");
            filter.check("com.example.bank.cards.Card");
            assertThat(filter.allowedPackages()).containsExactly("com.example.bank");
            // the sibling that shares the prefix is not the application's
            assertThatThrownBy(() -> filter.check(Loan.class.getName())).isInstanceOf(ClassNotAllowedException.class)
                    .hasMessageContaining("com.example.banking.Loan");
        });
    }

    @Test
    void allowedPackage_withTheFormerTrailingDot_meansTheSame() {
        app.withPropertyValues("sessionmesh.allowed-packages=com.example.bank.").run(ctx -> {
            ClassFilter filter = filter(ctx.getBean(SessionMeshClient.class));
            filter.check(ACCOUNT);
            assertThat(filter.isAllowed(Loan.class.getName())).isFalse();
            assertThat(filter.allowedPackages()).containsExactly("com.example.bank");
        });
    }

    @Test
    void allowedClasses_allowThatClassBesideThePackages() {
        app.withPropertyValues("sessionmesh.allowed-packages=com.example.bank", "sessionmesh.allowed-classes=java.net.URL")
                .run(ctx -> {
                    ClassFilter filter = filter(ctx.getBean(SessionMeshClient.class));
                    filter.check("java.net.URL");
                    filter.check(ACCOUNT);
                    assertThat(filter.isAllowed("java.net.URLConnection")).isFalse();
                });
        app.withPropertyValues("sessionmesh.allowed-classes=com.example.bank.Account").run(ctx -> {
            ClassFilter filter = filter(ctx.getBean(SessionMeshClient.class));
            filter.check(ACCOUNT);
            filter.check(Account.Owner.class.getName()); // a nested class comes with its class
            assertThat(filter.isAllowed("com.example.bank.Other")).isFalse();
        });
    }

    static ClassFilter filter(SessionMeshClient client) {
        return ClientCodec.of(client).classFilter();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "sessionmesh.allowed-packages=com.example.*            |is a wildcard                 |write com.example: a package includes those under it",
        "sessionmesh.allowed-packages=com.example.bank.Account |names a class                 |put it in sessionmesh.allowed-classes",
        "sessionmesh.allowed-packages=java.net.URL             |names a class                 |put it in sessionmesh.allowed-classes",
        "sessionmesh.allowed-packages=sun.misc                 |can match nothing             |remove it",
        "sessionmesh.allowed-packages=java.lang.reflect        |can match nothing             |remove it",
        "sessionmesh.allowed-packages=com..example             |has an empty part             |joined by single dots",
        "sessionmesh.allowed-packages=com.my-bank              |has a part that is not a Java identifier (my-bank)|write the name as the package declaration of its classes does",
        "sessionmesh.allowed-packages=com.example.bank/cards   |is written with slashes       |write com.example.bank.cards",
        "sessionmesh.allowed-classes=java.net.*                |is a wildcard                 |put java.net in sessionmesh.allowed-packages",
        "sessionmesh.allowed-classes=com.example.bank.         |ends with a dot               |put com.example.bank in sessionmesh.allowed-packages",
        "sessionmesh.allowed-classes=java.lang.Runtime         |is always denied              |remove it",
        "sessionmesh.allowed-classes=com.example.bank.Account.Owner|names a nested class with a dot|write com.example.bank.Account$Owner",
        "sessionmesh.allowed-classes=com.example.bank.Acount   |names no class on the application's class path|check its spelling",
        "sessionmesh.allowed-classes=com.example.bank          |names no class on the application's class path|if it is a package, put it in sessionmesh.allowed-packages",
        "sessionmesh.session-header=X Session Id               |is not a header name          |such as X-Session-Id",
        "sessionmesh.session-header=X-Session-Id:              |is not a header name (':' at index 12)|such as X-Session-Id",
        "sessionmesh.session-header=                           |is empty                      |X-Session-Id by default",
        "sessionmesh.session-cookie=MY;COOKIE                  |is not a cookie name (';' at index 2)|such as SESSIONMESH",
        "sessionmesh.route-cookie=route id                     |is not a cookie name          |such as SMROUTE",
        "sessionmesh.principal.header=X-User(name)             |is not a header name          |such as X-Authenticated-User",
        "sessionmesh.nodes=node-a;node-b                       |cannot be the value of the route cookie|letters, digits and - _ . only",
    })
    void badValue_failsTheStart_andTheReportNamesThePropertyAndTheFix(String property, String problem, String fix) {
        String name = property.substring(0, property.indexOf('='));
        String value = property.substring(property.indexOf('=') + 1);
        web.withPropertyValues(property).run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().isInstanceOf(InvalidSessionMeshPropertyException.class)
                    .hasMessageContaining(name).hasMessageContaining(problem).hasMessageContaining(fix);
            FailureAnalysis analysis = new InvalidSessionMeshPropertyFailureAnalyzer(null)
                    .analyze(ctx.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("Invalid value \"" + value.strip() + "\" in " + name)
                    .contains(": it " + problem);
            assertThat(analysis.getAction()).startsWith("Update " + name + ": ").contains(fix);
        });
    }

    @Test
    void listWithAnEmptyEntry_failsTheStart_namingTheCommaTooMany() {
        web.withPropertyValues("sessionmesh.allowed-packages=com.example.bank,").run(ctx ->
                assertThat(ctx.getStartupFailure()).rootCause()
                        .hasMessage("sessionmesh.allowed-packages: \"\" is blank; name a package, for instance"
                                + " com.example.bank, or remove the empty entry (a comma too many)"));
        web.withPropertyValues("sessionmesh.nodes=node-a,,node-b").run(ctx ->
                assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("sessionmesh.nodes: \"\" is blank"));
    }

    @Test
    void sameSiteNone_withoutSecureCookies_failsTheStart_namingTheFix() {
        web.withPropertyValues("sessionmesh.cookie-same-site=None", "sessionmesh.cookie-secure=false").run(ctx -> {
            assertThat(ctx.getStartupFailure()).rootCause().isInstanceOf(InvalidSessionMeshPropertyException.class)
                    .hasMessageContaining("sessionmesh.cookie-same-site: \"None\" needs sessionmesh.cookie-secure = true")
                    .hasMessageContaining("set sessionmesh.cookie-secure=true, or use Lax or Strict");
        });
    }

    @Test
    void allowedClass_hiddenFromTheApplicationsClassLoader_failsTheStart() {
        app.withClassLoader(new FilteredClassLoader(Account.class))
                .withPropertyValues("sessionmesh.allowed-classes=com.example.bank.Account").run(ctx ->
                        assertThat(ctx.getStartupFailure()).rootCause()
                                .hasMessageContaining("\"com.example.bank.Account\" names no class on the application's"
                                        + " class path"));
    }

    @Test
    void neitherPackagesNorClasses_failsTheStart_withAnExample() {
        app.run(ctx -> {
            assertThat(ctx).hasFailed();
            FailureAnalysis analysis = new InvalidSessionMeshPropertyFailureAnalyzer(null)
                    .analyze(ctx.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("sessionmesh.allowed-packages is not set");
            assertThat(analysis.getAction()).startsWith("Set sessionmesh.allowed-packages: ")
                    .contains("sessionmesh.allowed-packages=com.example.bank");
        });
    }

    /** The analyzer as Spring Boot finds it (META-INF/spring.factories) and makes it (with the environment). */
    @Test
    void springApplication_withABadValueInAFile_reportsTheFailureAnalysis_withTheLineOfTheValue(CapturedOutput output) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run(
                "--spring.config.location=classpath:property-checks/wildcard-package.properties"))
                .hasRootCauseInstanceOf(InvalidSessionMeshPropertyException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Invalid value \"com.example.*\" in sessionmesh.allowed-packages (class path resource"
                        + " [property-checks/wildcard-package.properties] - 2:30): it is a wildcard.")
                .contains("Update sessionmesh.allowed-packages: write com.example: a package includes those under it.");
    }

    /** An application of the auto-configuration alone. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SessionMeshAutoConfiguration.class)
    static class Application {
    }
}
