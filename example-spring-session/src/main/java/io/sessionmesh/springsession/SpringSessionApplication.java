package io.sessionmesh.springsession;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The example service's deposit flow on {@code HttpSession} alone; which store keeps the sessions is configuration
 * ({@link SessionConfiguration} and application.properties): Spring Session on Redis here.
 */
@SpringBootApplication
public class SpringSessionApplication {
    public static void main(String[] args) {
        SpringApplication.run(SpringSessionApplication.class, args);
    }
}
