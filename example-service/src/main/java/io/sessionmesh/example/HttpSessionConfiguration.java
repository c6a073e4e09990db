package io.sessionmesh.example;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.web.http.HeaderHttpSessionIdResolver;
import org.springframework.session.web.http.HttpSessionIdResolver;

/**
 * HttpSession's id travels where the section API's does, in the {@value #HEADER} header, so that a request's
 * {@code HttpSession} and its {@code CurrentSession} are the same SessionMesh session.
 */
@Configuration(proxyBeanMethods = false)
class HttpSessionConfiguration {
    /** The request and response header of the session id: the client jar's {@code sessionmesh.session-header}. */
    static final String HEADER = "X-Session-Id";

    @Bean
    HttpSessionIdResolver httpSessionIdResolver() {
        return new HeaderHttpSessionIdResolver(HEADER);
    }
}
