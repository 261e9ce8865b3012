/* ambientlight: light arriving from no direction; only ambient() sees it. */
light ambientlight(float intensity = 1; color lightcolor = 1)
{
    Cl = intensity * lightcolor;
}
