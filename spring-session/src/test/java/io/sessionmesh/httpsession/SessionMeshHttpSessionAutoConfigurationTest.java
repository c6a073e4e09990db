package io.sessionmesh.httpsession;

import io.sessionmesh.client.spring.InvalidSessionMeshPropertyException;
import io.sessionmesh.client.spring.SessionMeshAutoConfiguration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.session.SessionRepository;

import java.lang.reflect.Constructor;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The drop-in's start-up, without a network (the client connects lazily): the properties written as people write them
 * start it, and a value that would match nothing stops it with Spring Boot's report naming the property and the fix.
 */
class SessionMeshHttpSessionAutoConfigurationTest {
    final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class,
                    SessionMeshHttpSessionAutoConfiguration.class))
            .withPropertyValues("sessionmesh.allowed-packages=com.example.bank");

    @Test
    void propertiesWrittenAsPeopleWriteThem_startTheDropIn() {
        web.withPropertyValues("sessionmesh.allowed-packages=com.example.bank, com.example.common",
                "sessionmesh.allowed-classes=java.net.URL", "sessionmesh.http-session.sections=cart, wishlist",
                "sessionmesh.http-session.url-patterns=/profile,/profile/*,*.html,/").run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    SessionRepository<?> repository = ctx.getBean(SessionRepository.class);
                    assertThat(repository).isInstanceOf(SessionMeshSessionRepository.class);
                    assertThat(ctx.getBean(SessionMeshHttpSessionProperties.class).getSections())
                            .isEqualTo(List.of("cart", "wishlist"));
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "sessionmesh.allowed-packages=baseline.*                   |baseline.*     |is a wildcard                        |write baseline: a package includes those under it",
        "sessionmesh.allowed-packages=baseline.Account             |baseline.Account|names a class                       |put it in sessionmesh.allowed-classes",
        "sessionmesh.http-session.sections=cart.items              |cart.items     |has a dot, so it claims no attribute |write cart: it claims every attribute named cart.<name>",
        "sessionmesh.http-session.sections=cart.*                  |cart.*         |is a wildcard                        |write cart: it claims every attribute named cart.<name>",
        "sessionmesh.http-session.sections=spring-session          |spring-session |is the section of the session's own figures|name another section",
        "'sessionmesh.http-session.sections=cart,,wishlist'        |''             |is blank                             |remove the empty entry (a comma too many)",
        "sessionmesh.http-session.default-section=                 |''             |is blank                             |http by default",
        "sessionmesh.http-session.default-section=spring-session   |spring-session |is the section of the session's own figures|name another section",
        "'sessionmesh.http-session.default-section=a,b'            |'a,b'          |breaks the section name rules        |without control characters or commas",
        "sessionmesh.http-session.url-patterns=/cart/**            |/cart/**       |has a * where a servlet URL pattern has none|write /cart/*: it serves /cart and every path under it",
        "sessionmesh.http-session.url-patterns=/api/*/items        |/api/*/items   |has a * where a servlet URL pattern has none, so it is taken as an exact path that no request has|write /api/*",
        "sessionmesh.http-session.url-patterns=/cart*              |/cart*        |has a * where a servlet URL pattern has none|write /cart/*",
        "sessionmesh.http-session.url-patterns=/**                 |/**            |has a * where a servlet URL pattern has none|write /*: it serves every path",
        "sessionmesh.http-session.url-patterns=cart/*              |cart/*         |does not start with /                |write /cart/*",
        "sessionmesh.http-session.url-patterns=*.tar.gz            |*.tar.gz       |is not an extension pattern          |write one extension, such as *.html",
        "'sessionmesh.http-session.url-patterns=/profile,'         |''             |is blank                             |remove the empty entry",
    })
    void badValue_failsTheStart_andTheReportNamesThePropertyAndTheFix(String property, String value, String problem,
                                                                      String fix) {
        String name = property.substring(0, property.indexOf('='));
        web.withPropertyValues(property).run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().isInstanceOf(InvalidSessionMeshPropertyException.class)
                    .hasMessageStartingWith(name + ": \"" + value + "\" ").hasMessageContaining(problem)
                    .hasMessageContaining(fix);
            FailureAnalysis analysis = analyzer().analyze(ctx.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("Invalid value \"" + value + "\" in " + name)
                    .contains(": it " + problem);
            assertThat(analysis.getAction()).startsWith("Update " + name + ": ").contains(fix);
        });
    }

    @Test
    void defaultSection_withSpacesAroundIt_isRefused() {
        // a properties file keeps trailing spaces, which would make "http " another section than other services' "http"
        SessionMeshHttpSessionProperties p = new SessionMeshHttpSessionProperties();
        p.setDefaultSection("http ");
        assertThatThrownBy(() -> HttpSessionPropertyChecks.sections(p))
                .hasMessage("sessionmesh.http-session.default-section: \"http \" has spaces around it, which are part of"
                        + " a section name; write http");
    }

    /**
     * The client jar's analyzer of its exception (package-private there; SessionMeshPropertyChecksTest shows Spring
     * Boot finding it through META-INF/spring.factories), without an environment.
     */
    static FailureAnalyzer analyzer() throws ReflectiveOperationException {
        String name = "io.sessionmesh.client.spring.InvalidSessionMeshPropertyFailureAnalyzer";
        Constructor<?> constructor = Class.forName(name).getDeclaredConstructor(Environment.class);
        constructor.setAccessible(true);
        return (FailureAnalyzer) constructor.newInstance((Environment) null);
    }
}
