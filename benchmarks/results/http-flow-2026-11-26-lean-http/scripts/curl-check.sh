#!/usr/bin/env bash
# curl against a sidecar built from this branch: create, write (JSON), read, a large body with Expect: 100-continue, chunked refused
cd <repo>
java -Xms256m -Xmx256m -jar master-store/target/sessionmesh-master.jar --port 17401 > <scratch>/curl-master.log 2>&1 & m=$!
java -Xms256m -Xmx256m -jar <scratch>/new2-sidecar.jar --masters 127.0.0.1:17401 --port 17510 --admin-port 17511 > <scratch>/curl-sidecar.log 2>&1 & s=$!
for i in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:17511/admin/health 2>/dev/null && break; sleep 0.2; done
sleep 1
id=$(curl -s -X POST http://127.0.0.1:17510/v1/sessions | sed 's/.*"id":"\([^"]*\)".*/\1/')
echo "created $id"
curl -s -i -X PATCH -H 'Content-Type: application/json' -d '{"sections":{"s":{"set":{"v":"aGVsbG8="}}}}' http://127.0.0.1:17510/v1/sessions/$id | head -1
curl -s "http://127.0.0.1:17510/v1/sessions/$id?sections=s"; echo
big=$(head -c 3000 /dev/zero | tr '\0' 'A')
curl -s -i -H 'Expect: 100-continue' -X PATCH -H 'Content-Type: application/json' -d "{\"sections\":{\"s\":{\"set\":{\"v\":\"$big\"}}}}" http://127.0.0.1:17510/v1/sessions/$id | grep -E "^HTTP"
curl -s -i -X PATCH -H 'Content-Type: application/json' -H 'Transfer-Encoding: chunked' -d '{"sections":{}}' http://127.0.0.1:17510/v1/sessions/$id | grep -E "^HTTP|error"
curl -s -i --http1.0 "http://127.0.0.1:17510/v1/sessions/$id?sections=s" | head -1
curl -s -I "http://127.0.0.1:17510/v1/sessions/$id?sections=s" | head -3
kill $s $m; wait 2>/dev/null
