"""Keyless cosign signatures (v2, the `.sig` tag), made offline for the registry tests.

A CA made here stands in for Fulcio and a P-256 key for Rekor's, so a test can
sign as any identity and forge any part; both are fresh on each run. Writes to
OUTDIR `trusted_root.json` (that CA and that log, as a Sigstore trust root
lists them) and `other_root.json` (another CA, the same log), then pushes to
the registry, over plain HTTP, the `.sig` manifest of DIGEST for one CASE:

  good              a certificate for IDENTITY and ISSUER from the CA, the signature
                    by its key, the log's promise (a bundle) for that signature
  forged-signature  the same certificate and bundle, the signature by another key
  untrusted-ca      a good-looking certificate from a CA the trust root does not name
  other-identity    a valid certificate and signature, for another identity
  replayed          a whole good signature (certificate, bundle, signature) of another
                    digest, as anyone can copy it from a registry, under DIGEST's tag
  unlogged          a signature by a certificate's key that was never logged: the
                    certificate has expired (its key may have leaked since), and the
                    bundle is another entry's, from within the certificate's lifetime

Usage: cosign_keyless.py HOST:PORT REPOSITORY DIGEST IDENTITY ISSUER OUTDIR CASE
(IDENTITY: an e-mail address, or a URI as CI workflows have.)
"""

import base64
import datetime
import hashlib
import json
import os
import sys
import urllib.parse
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

host, repository, digest, identity, issuer, outdir, case = sys.argv[1:8]
now = datetime.datetime.now(datetime.timezone.utc)


def b64(data):
    return base64.b64encode(data).decode()


def new_key():
    return ec.generate_private_key(ec.SECP256R1())


def der(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def sign(key, data):
    return b64(key.sign(data, ec.ECDSA(hashes.SHA256())))


def make_ca(cn):
    key = new_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def make_leaf(ca, who, born=now - datetime.timedelta(minutes=1)):
    """What Fulcio issues: a fresh key, ten minutes of life, code signing, the identity as
    the only SAN, the OIDC issuer in 1.3.6.1.4.1.57264.1.1 (raw UTF-8, as sigstore-rs reads it)."""
    ca_key, ca_cert = ca
    key = new_key()
    san = x509.UniformResourceIdentifier(who) if "://" in who else x509.RFC822Name(who)
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([])).issuer_name(ca_cert.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(born).not_valid_after(born + datetime.timedelta(minutes=10))
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
        .add_extension(x509.SubjectAlternativeName([san]), critical=True)
        .add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.1"), issuer.encode()),
                       critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert


def payload_for(manifest_digest):
    """The simple-signing payload cosign signs: the repository and the manifest digest."""
    return json.dumps({
        "critical": {
            "identity": {"docker-reference": f"{host}/{repository}"},
            "image": {"docker-manifest-digest": manifest_digest},
            "type": "cosign container image signature",
        },
        "optional": None,
    }, separators=(",", ":")).encode()


rekor = new_key()
rekor_spki = rekor.public_key().public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)
log_id = hashlib.sha256(rekor_spki).digest()


def bundle(payload, signature, cert, when=now):
    """Rekor's signed promise (SET) for a hashedrekord entry of this signature: its key signs
    the canonical JSON (sorted keys, no spaces) of the entry's body, time, index and log id."""
    body = {
        "apiVersion": "0.0.1", "kind": "hashedrekord",
        "spec": {"data": {"hash": {"algorithm": "sha256", "value": hashlib.sha256(payload).hexdigest()}},
                 "signature": {"content": signature, "publicKey": {"content": b64(pem(cert).encode())}}},
    }
    entry = {"body": b64(json.dumps(body).encode()), "integratedTime": int(when.timestamp()), "logIndex": 7,
             "logID": log_id.hex()}
    canonical = json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()
    return json.dumps({"SignedEntryTimestamp": sign(rekor, canonical), "Payload": entry})


def trust_root(ca_cert):
    """A Sigstore trusted_root.json naming the CA and the log."""
    since = {"start": (now - datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")}
    return {
        "mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
        "tlogs": [{
            "baseUrl": "https://rekor.invalid", "hashAlgorithm": "SHA2_256",
            "publicKey": {"rawBytes": b64(rekor_spki), "keyDetails": "PKIX_ECDSA_P256_SHA_256", "validFor": since},
            "logId": {"keyId": b64(log_id)},
        }],
        "certificateAuthorities": [{
            "subject": {"commonName": ca_cert.subject.rfc4514_string()}, "uri": "https://fulcio.invalid",
            "certChain": {"certificates": [{"rawBytes": b64(der(ca_cert))}]}, "validFor": since,
        }],
        "ctlogs": [], "timestampAuthorities": [],
    }


ca = make_ca("fulcio stand-in")
os.makedirs(outdir, exist_ok=True)
for file, ca_cert in [("trusted_root.json", ca[1]), ("other_root.json", make_ca("another fulcio")[1])]:
    with open(os.path.join(outdir, file), "w") as out:
        json.dump(trust_root(ca_cert), out, indent=2)

payload = payload_for(digest)
key, cert = make_leaf(ca, identity)
signature = sign(key, payload)
logged = bundle(payload, signature, cert)
if case == "good":
    pass
elif case == "forged-signature":
    signature = sign(new_key(), payload)
elif case == "untrusted-ca":
    key, cert = make_leaf(make_ca("fulcio stand-in"), identity)
    signature = sign(key, payload)
    logged = bundle(payload, signature, cert)
elif case == "other-identity":
    key, cert = make_leaf(ca, "mallory@example.com")
    signature = sign(key, payload)
    logged = bundle(payload, signature, cert)
elif case == "replayed":
    payload = payload_for("sha256:" + hashlib.sha256(b"another component").hexdigest())
    signature = sign(key, payload)
    logged = bundle(payload, signature, cert)
elif case == "unlogged":
    born = now - datetime.timedelta(hours=2)
    key, cert = make_leaf(ca, identity, born=born)
    signature = sign(key, payload)
    # A genuine entry of the log, made while the certificate was valid, for something else.
    other = payload_for("sha256:" + hashlib.sha256(b"another component").hexdigest())
    logged = bundle(other, sign(key, other), cert, when=born + datetime.timedelta(minutes=5))
else:
    sys.exit(f"unknown case {case}")

annotations = {
    "dev.cosignproject.cosign/signature": signature,
    "dev.sigstore.cosign/certificate": pem(cert),
    "dev.sigstore.cosign/chain": pem(ca[1]),
    "dev.sigstore.cosign/bundle": logged,
}


def request(method, url, data, content_type):
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": content_type})
    with urllib.request.urlopen(req) as response:
        return response


def push_blob(data):
    """The distribution API's monolithic upload: POST for a location, PUT the bytes there."""
    blob_digest = "sha256:" + hashlib.sha256(data).hexdigest()
    started = request("POST", f"http://{host}/v2/{repository}/blobs/uploads/", b"", "application/octet-stream")
    location = urllib.parse.urljoin(f"http://{host}/", started.headers["Location"])
    separator = "&" if "?" in location else "?"
    request("PUT", f"{location}{separator}digest={blob_digest}", data, "application/octet-stream")
    return {"size": len(data), "digest": blob_digest}


config = push_blob(b"{}")
manifest = {
    "schemaVersion": 2,
    "mediaType": "application/vnd.oci.image.manifest.v1+json",
    "config": {"mediaType": "application/vnd.oci.image.config.v1+json", **config},
    "layers": [{"mediaType": "application/vnd.dev.cosign.simplesigning.v1+json", **push_blob(payload),
                "annotations": annotations}],
}
tag = digest.replace(":", "-") + ".sig"
request("PUT", f"http://{host}/v2/{repository}/manifests/{tag}", json.dumps(manifest).encode(),
        "application/vnd.oci.image.manifest.v1+json")
print(f"pushed {case} to {host}/{repository}:{tag}")
