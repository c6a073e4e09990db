package io.sessionmesh.httpsession;

import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.spring.SessionMeshAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.core.env.Environment;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.session.SessionAutoConfiguration;
import org.springframework.boot.autoconfigure.session.SessionProperties;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.SessionRepository;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.config.annotation.web.http.SpringHttpSessionConfiguration;

import java.time.Duration;
import java.util.List;

/**
 * The HttpSession drop-in: with this jar on the class path (in place of {@code spring-session-data-redis}) and no
 * {@link SessionRepository} of the application's, Spring Session's filter backs every {@code HttpSession} with a
 * {@link SessionMeshSessionRepository} on the {@link SessionMeshClient} the client jar configures
 * ({@code sessionmesh.sidecar-uri}, {@code sessionmesh.allowed-packages}, {@code sessionmesh.allowed-classes}).
 * A {@code sessionmesh.http-session.*} value that would match nothing (a section with a dot, a URL pattern with a
 * {@code **}) fails the start, naming the fix (HttpSessionPropertyChecks). Runs before Spring Boot's own
 * session configuration, which then finds a repository and configures none of its stores; Boot's filter registration
 * ({@code spring.session.servlet.filter-order}, dispatcher types) still applies. An {@code HttpSessionIdResolver},
 * {@code CookieSerializer} or {@link SessionIdGenerator} bean of the application's is used as Spring Session uses it.
 */
@AutoConfiguration(before = SessionAutoConfiguration.class, after = SessionMeshAutoConfiguration.class)
@ConditionalOnClass({SessionRepository.class, SessionMeshClient.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({SessionMeshHttpSessionProperties.class, SessionProperties.class, ServerProperties.class})
public class SessionMeshHttpSessionAutoConfiguration {
    /** The property of the filter's paths ({@link SessionMeshHttpSessionProperties#getUrlPatterns()}). */
    static final String URL_PATTERNS_PROPERTY = "sessionmesh.http-session.url-patterns";
    /** The bean that registers Spring Session's filter in Spring Boot (its SessionRepositoryFilterConfiguration). */
    static final String SESSION_FILTER_REGISTRATION = "sessionRepositoryFilterRegistration";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(SessionRepository.class)
    @Import(SpringHttpSessionConfiguration.class)
    static class Repository {
        @Bean
        SessionMeshSessionRepository sessionRepository(SessionMeshClient client, SessionMeshHttpSessionProperties p,
                                                       SessionProperties session, ServerProperties server,
                                                       ObjectProvider<SessionIdGenerator> ids,
                                                       ApplicationEventPublisher events, Environment environment,
                                                       ObjectProvider<SessionRepositoryCustomizer<SessionMeshSessionRepository>> customizers) {
            SessionMeshSessionRepository repository = new SessionMeshSessionRepository(client,
                    HttpSessionPropertyChecks.sections(p));
            Duration timeout = session.determineTimeout(() -> server.getServlet().getSession().getTimeout());
            repository.setDefaultMaxInactiveInterval(timeout == null ? SessionMeshSessionRepository.DEFAULT_MAX_INACTIVE_INTERVAL : timeout);
            // an application moved from Spring Session on Redis keeps its modes (the store's own properties first)
            Binder binder = Binder.get(environment);
            repository.setFlushMode(p.getFlushMode() != null ? p.getFlushMode()
                    : binder.bind("spring.session.redis.flush-mode", FlushMode.class).orElse(FlushMode.ON_SAVE));
            repository.setSaveMode(p.getSaveMode() != null ? p.getSaveMode()
                    : binder.bind("spring.session.redis.save-mode", SaveMode.class).orElse(SaveMode.ON_SET_ATTRIBUTE));
            ids.ifAvailable(repository::setSessionIdGenerator);
            repository.setApplicationEventPublisher(events);
            customizers.orderedStream().forEach(c -> c.customize(repository));
            return repository;
        }

        /**
         * Spring Boot registers Spring Session's filter for every path; {@code sessionmesh.http-session.url-patterns}
         * narrows it (read from the environment: a post-processor is made before configuration properties are).
         */
        @Bean
        static BeanPostProcessor sessionMeshFilterUrlPatterns(Environment environment) {
            List<String> patterns = HttpSessionPropertyChecks.urlPatterns(Binder.get(environment)
                    .bind(URL_PATTERNS_PROPERTY, Bindable.listOf(String.class)).orElse(List.of("/*")));
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof DelegatingFilterProxyRegistrationBean registration
                            && SESSION_FILTER_REGISTRATION.equals(beanName)) {
                        registration.setUrlPatterns(patterns);
                    }
                    return bean;
                }
            };
        }
    }
}
