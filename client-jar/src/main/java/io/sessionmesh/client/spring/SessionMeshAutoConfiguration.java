package io.sessionmesh.client.spring;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.processor.SectionIndex;
import io.sessionmesh.serialization.attribute.ClassFilter;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The Spring Boot integration: with the client jar on the class path and {@code sessionmesh.sidecar-uri} set (or
 * the default, the sidecar on this host), a {@link SessionMeshClient}, a {@link CurrentSession} for controllers, the
 * {@code @SessionSections} interceptor and the save advice; Micrometer metrics when a {@link MeterRegistry} exists;
 * a {@link SessionPrincipalResolver} unless the application has one (Spring Security's user when it is on the class
 * path, else the servlet user, else the header {@code sessionmesh.principal.header} names).
 * {@code sessionmesh.allowed-packages} (or {@code sessionmesh.allowed-classes}) is required: without it the application
 * fails to start. So does a property value that cannot do what it is for (an allowed package that is a wildcard or
 * names a class, an allowed class not on the class path, a header name no request can carry: the table of
 * PropertyChecks), reported by Spring Boot with the property and the fix ({@link InvalidSessionMeshPropertyException}).
 */
@AutoConfiguration
@ConditionalOnClass(SessionMeshClient.class)
@EnableConfigurationProperties(SessionMeshProperties.class)
public class SessionMeshAutoConfiguration {
    /** Spring Security's class the default {@link SessionPrincipalResolver} needs. */
    static final String SECURITY_CONTEXT = "org.springframework.security.core.context.SecurityContextHolder";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SessionMeshClient sessionMeshClient(SessionMeshProperties p, ObjectProvider<ClientMetrics> metrics,
                                               ResourceLoader resources) {
        ClassLoader loader = resources.getClassLoader() != null ? resources.getClassLoader()
                : SessionMeshAutoConfiguration.class.getClassLoader();
        ClassFilter filter = PropertyChecks.classFilter(p, loader);
        return SessionMeshClient.builder()
                .sidecar(p.getSidecarUri())
                .admin(p.getAdminUri())
                .adminToken(p.getAdminToken())
                .connectTimeout(p.getConnectTimeout())
                .requestTimeout(p.getRequestTimeout())
                .poolSize(p.getPoolSize())
                .saveMode(p.getSaveMode())
                .classFilter(filter)
                .metrics(metrics.getIfAvailable(() -> ClientMetrics.NONE))
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    public SectionIndex sessionMeshSectionIndex() {
        return SectionIndex.load(Thread.currentThread().getContextClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean
    public CurrentSession currentSession(SessionMeshClient client, SessionMeshProperties p,
                                         ObjectProvider<SessionPrincipalResolver> principals) {
        return new CurrentSession(client, p, principals.getIfAvailable(() -> SessionPrincipalResolver.NONE));
    }

    /** The resolvers after Spring Security's: the servlet container's user, then the configured header, if any. */
    static SessionPrincipalResolver servletAndHeader(SessionMeshProperties p) {
        String header = p.getPrincipal().getHeader();
        return header == null || header.isEmpty() ? SessionPrincipalResolver.userPrincipal()
                : SessionPrincipalResolver.firstOf(SessionPrincipalResolver.userPrincipal(), SessionPrincipalResolver.header(header));
    }

    /** The default resolver with Spring Security: its authenticated user first. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = SECURITY_CONTEXT)
    static class SecurityPrincipals {
        @Bean
        @ConditionalOnMissingBean(SessionPrincipalResolver.class)
        SessionPrincipalResolver sessionPrincipalResolver(SessionMeshProperties p) {
            return SessionPrincipalResolver.firstOf(new SpringSecurityPrincipalResolver(), servletAndHeader(p));
        }
    }

    /** The default resolver without Spring Security: nothing of it is loaded, so such applications start. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(SECURITY_CONTEXT)
    static class ServletPrincipals {
        @Bean
        @ConditionalOnMissingBean(SessionPrincipalResolver.class)
        SessionPrincipalResolver sessionPrincipalResolver(SessionMeshProperties p) {
            return servletAndHeader(p);
        }
    }

    /** Micrometer, when the application has it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean(ClientMetrics.class)
        ClientMetrics sessionMeshClientMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry r = registry.getIfAvailable();
            return r == null ? ClientMetrics.NONE : new MicrometerClientMetrics(r);
        }
    }

    /** Spring MVC: the interceptor and the save advice. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(HandlerInterceptor.class)
    static class Web {
        @Bean
        SessionSectionsInterceptor sessionSectionsInterceptor(SectionIndex index, CurrentSession current) {
            return new SessionSectionsInterceptor(index, current);
        }

        @Bean
        SessionSaveAdvice sessionSaveAdvice(CurrentSession current) {
            return new SessionSaveAdvice(current);
        }

        @Bean
        @ConditionalOnMissingBean
        SessionMeshErrorAdvice sessionMeshErrorAdvice() {
            return new SessionMeshErrorAdvice();
        }

        @Bean
        WebMvcConfigurer sessionMeshWebMvc(SessionSectionsInterceptor interceptor) {
            return new WebMvcConfigurer() {
                @Override
                public void addInterceptors(InterceptorRegistry registry) {
                    registry.addInterceptor(interceptor);
                }
            };
        }
    }
}
