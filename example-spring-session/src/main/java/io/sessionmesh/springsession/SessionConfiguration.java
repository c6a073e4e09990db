package io.sessionmesh.springsession;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.web.http.HeaderHttpSessionIdResolver;
import org.springframework.session.web.http.HttpSessionIdResolver;

/**
 * The one place this application names Spring Session: the session id travels in the {@value #HEADER} header, as
 * the example service's does, so a load generator sends the same request to both. The repository, its serialization,
 * save and flush modes and the timeout are Spring Boot's, set in application.properties.
 */
@Configuration(proxyBeanMethods = false)
class SessionConfiguration {
    /** The request and response header of the session id. */
    static final String HEADER = "X-Session-Id";

    @Bean
    HttpSessionIdResolver httpSessionIdResolver() {
        return new HeaderHttpSessionIdResolver(HEADER);
    }
}
