"""The box on an emulated RP2040: the stock MicroPython UF2 and the boot ROM on rp2040js (node),
the firmware deployed as `make flash` deploys it (scripts/flash.sh's staged tree as the LittleFS
image a Pico mounts), the UART on a pty for the tablet's LinkMaster, the keypad at GPIO level,
the OLED at I2C level (screens as PNG). See hardware/emu/README.md."""
