package io.sessionmesh.example;

import io.sessionmesh.client.spring.SessionPrincipalResolver;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** The example service: a deposit-opening flow whose state lives in the shared session. */
@SpringBootApplication
public class DepositApplication {
    public static void main(String[] args) {
        SpringApplication.run(DepositApplication.class, args);
    }

    /**
     * Whom a request's sessions belong to: the client its login names ({@link DepositController#LOGIN_CLIENT}), so
     * {@code CurrentSession.create()} makes the login's session with the client id as its principal, in the one call
     * that creates it. Other requests name no one, which leaves their session's principal as it is (no call). This
     * example has no authentication; a service that has some needs no bean of its own: the default resolver names
     * Spring Security's user, or the servlet container's.
     */
    @Bean
    SessionPrincipalResolver loginClient() {
        return request -> request.getAttribute(DepositController.LOGIN_CLIENT) instanceof String client ? client : null;
    }
}
