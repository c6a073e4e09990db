package io.sessionmesh.client.spring;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The default {@link SessionPrincipalResolver}'s order: Spring Security, the servlet user, the configured header. */
class SessionPrincipalResolverTest {
    final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
            .withPropertyValues("sessionmesh.allowed-packages=com.example.bank");

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    static MockHttpServletRequest request(String userPrincipal, String header) {
        MockHttpServletRequest r = new MockHttpServletRequest();
        if (userPrincipal != null) {
            r.setUserPrincipal(() -> userPrincipal);
        }
        if (header != null) {
            r.addHeader("X-User", header);
        }
        return r;
    }

    static void authenticate(String name) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(name, "n/a", List.of()));
    }

    @Test
    void withSecurity_theAuthenticatedUserComesFirst() {
        web.withPropertyValues("sessionmesh.principal.header=X-User").run(ctx -> {
            SessionPrincipalResolver r = ctx.getBean(SessionPrincipalResolver.class);
            authenticate("alice");
            assertThat(r.principalFor(request("bob", "carol"))).isEqualTo("alice");
        });
    }

    @Test
    void withSecurity_anonymousOrUnauthenticated_fallsThroughToTheServletUserThenTheHeader() {
        web.withPropertyValues("sessionmesh.principal.header=X-User").run(ctx -> {
            SessionPrincipalResolver r = ctx.getBean(SessionPrincipalResolver.class);
            SecurityContextHolder.getContext().setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
                    AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
            assertThat(r.principalFor(request("bob", "carol"))).isEqualTo("bob");
            SecurityContextHolder.getContext().setAuthentication(
                    UsernamePasswordAuthenticationToken.unauthenticated("mallory", "guess"));
            assertThat(r.principalFor(request(null, "carol"))).isEqualTo("carol");
            SecurityContextHolder.clearContext();
            assertThat(r.principalFor(request(null, null))).isNull();
        });
    }

    @Test
    void withoutSecurityOnTheClassPath_theContextStarts_andTheServletUserComesFirst() {
        web.withClassLoader(new FilteredClassLoader("org.springframework.security."))
                .withPropertyValues("sessionmesh.principal.header=X-User").run(ctx -> {
                    assertThat(ctx).hasNotFailed().hasSingleBean(SessionPrincipalResolver.class);
                    SessionPrincipalResolver r = ctx.getBean(SessionPrincipalResolver.class);
                    assertThat(r).isNotInstanceOf(SpringSecurityPrincipalResolver.class);
                    authenticate("alice"); // on this test's class path, but not the application's: not asked
                    assertThat(r.principalFor(request("bob", "carol"))).isEqualTo("bob");
                    assertThat(r.principalFor(request(null, "carol"))).isEqualTo("carol");
                });
    }

    @Test
    void withoutTheHeaderProperty_noHeaderIsRead() {
        web.run(ctx -> assertThat(ctx.getBean(SessionPrincipalResolver.class).principalFor(request(null, "carol"))).isNull());
        web.withPropertyValues("sessionmesh.principal.header=").run(ctx ->
                assertThat(ctx.getBean(SessionPrincipalResolver.class).principalFor(request(null, "carol"))).isNull());
    }

    @Test
    void anApplicationsResolver_replacesTheDefault() {
        web.withBean(SessionPrincipalResolver.class, () -> request -> "fixed").run(ctx -> {
            assertThat(ctx).hasSingleBean(SessionPrincipalResolver.class);
            authenticate("alice");
            assertThat(ctx.getBean(SessionPrincipalResolver.class).principalFor(request("bob", null))).isEqualTo("fixed");
        });
    }
}
