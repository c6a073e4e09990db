package io.sessionmesh.client.spring;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Spring Security's authenticated user of the current thread's security context: {@link Authentication#getName()}
 * when it is authenticated and not anonymous, else null. Loaded only when spring-security-core is on the class path
 * (the auto-configuration's {@code @ConditionalOnClass}).
 */
public final class SpringSecurityPrincipalResolver implements SessionPrincipalResolver {
    @Override
    public String principalFor(HttpServletRequest request) {
        Authentication a = SecurityContextHolder.getContext().getAuthentication();
        if (a == null || !a.isAuthenticated() || a instanceof AnonymousAuthenticationToken) {
            return null;
        }
        String name = a.getName();
        return name == null || name.isEmpty() ? null : name;
    }
}
