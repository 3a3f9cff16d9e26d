#!/usr/bin/env bash
# Installs everything fluturas needs on a fresh Debian/Ubuntu machine, idempotently:
# system packages (apt-get, only those missing), then a virtual environment in .venv with
# `pip install -e .[dev]` (which also compiles the move generator's C part).
# Run as root, or as a user with sudo. Re-running is quick when everything is present.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(
  gcc python3-dev python3-venv       # the compiled move generator; the virtual environment
  hunspell-ro hunspell-tools         # rebuilding the demo word list (unmunch)
  tesseract-ocr tesseract-ocr-eng    # the alternative slip reader (--reader tesseract)
  postgresql                         # the store's tests run on a real PostgreSQL too
  chromium                           # the web app's browser tests (Playwright drives it headless)
  libreoffice-calc-nogui             # tests recalculate the exported sheet's formulas (soffice --headless)
  # Handwriting-like fonts for the synthetic slip renderer (training, tests, benchmark, demo).
  fonts-averia-gwf fonts-breip fonts-bwht fonts-cabinsketch fonts-cantarell fonts-cherrybomb
  fonts-comfortaa fonts-comic-neue fonts-dancingscript fonts-dejavu-core fonts-dkg-handwriting
  fonts-dosis fonts-dustin fonts-ecolier-court fonts-eurofurence fonts-fantasque-sans
  fonts-freefont-ttf fonts-humor-sans fonts-isabella fonts-junction fonts-jura fonts-karla
  fonts-kaushanscript fonts-klee fonts-kristi fonts-lato fonts-league-spartan fonts-liberation
  fonts-opendyslexic fonts-osifont fonts-play fonts-quicksand fonts-rocknroll fonts-routed-gothic
  fonts-rufscript fonts-sil-andika fonts-sjfonts fonts-tomsontalks fonts-urw-base35
  fonts-yusei-magic fonts-seto fonts-kiloji fonts-nanum-extra fonts-yozvox-yozfont fonts-leckerli-one
)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install.sh: apt-get install ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "install.sh: creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.fluturas-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ -n "$(find corrector \( -name '*.c' -o -name '*.h' \) -newer "$stamp" 2>/dev/null)" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev]"
  touch "$stamp"
fi
echo "install.sh: ready ($(.venv/bin/fluturas --help >/dev/null && echo 'fluturas command works'))"
